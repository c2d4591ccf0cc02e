/**
 * A fake ClickBank Orders API on 127.0.0.1 (random port) for tests: `GET /rest/1.3/orders2/list`
 * as ClickBank documents it — query `startDate`/`endDate` (yyyy-mm-dd, both or neither), 100
 * orders a page chosen by the request header `Page` (1-based), answered 206 Partial Content while
 * more pages follow and 200 on the last; `{orderData: [...]}`, where ClickBank's JSON gives a list
 * of one element as the element itself. The `Authorization` header must be `DEV-KEY:CLERK-KEY` (or
 * the API key alone), else 403 with a plain message, as ClickBank answers. Orders have the
 * OrderData shape of the Orders API schema (transactionTime, receipt, transactionType, email,
 * lineItemData [{itemNo, productTitle, recurring, status, nextPaymentDate, …}], …). `script` queues
 * answers for the next requests (429 with Retry-After, 5xx). Loopback only.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FakeApiRequest, ScriptedReply } from './fakeLemonSqueezyApi';

/** A running fake Orders API. */
export interface FakeClickbankApi {
  url: string;
  /** The account's orders (OrderData objects); mutate freely. */
  orders: Array<Record<string, unknown>>;
  script: ScriptedReply[];
  requests: FakeApiRequest[];
  close(): Promise<void>;
}

/** Starts the fake accepting `authorization` as the Authorization header. */
export async function startFakeClickbankApi(authorization: string): Promise<FakeClickbankApi> {
  const fake: Omit<FakeClickbankApi, 'url' | 'close'> = { orders: [], script: [], requests: [] };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    fake.requests.push({ path: url.pathname + url.search, headers: req.headers });
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    const scripted = fake.script.shift();
    if (scripted) {
      if (scripted.status === 'hang') return;
      json(
        scripted.status,
        'Service unavailable',
        scripted.status === 429 && scripted.retryAfter !== undefined
          ? { 'Retry-After': scripted.retryAfter }
          : {},
      );
      return;
    }
    if (req.headers.authorization !== authorization) {
      res.writeHead(403, { 'Content-Type': 'text/plain' });
      res.end('Forbidden');
      return;
    }
    if (req.method !== 'GET' || url.pathname !== '/rest/1.3/orders2/list') {
      json(404, 'Not Found');
      return;
    }
    const start = url.searchParams.get('startDate');
    const end = url.searchParams.get('endDate');
    if ((start === null) !== (end === null)) {
      json(400, 'startDate and endDate must be given together');
      return;
    }
    const inRange = (o: Record<string, unknown>) => {
      if (start === null || end === null) return true;
      const day = new Date(Date.parse(String(o.transactionTime))).toISOString().slice(0, 10);
      return day >= start && day <= end;
    };
    const all = fake.orders.filter(inRange);
    const page = Math.max(1, Number(req.headers.page ?? 1) || 1);
    const rows = all.slice((page - 1) * 100, page * 100);
    const more = page * 100 < all.length;
    const one = (o: Record<string, unknown>) => {
      const items = o.lineItemData;
      return Array.isArray(items) && items.length === 1 ? { ...o, lineItemData: items[0] } : o;
    };
    json(more ? 206 : 200, {
      orderData: rows.length === 1 && rows[0] ? one(rows[0]) : rows.map(one),
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(fake, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

/** A ClickBank OrderData object (Orders API shape) for a recurring membership. Amounts in currency units. */
export function clickbankOrder(args: {
  receipt: string;
  type: 'SALE' | 'BILL' | 'RFND' | 'CGBK';
  email: string;
  at: Date;
  amount?: number;
  /** The line item's status (ClickBank: ACTIVE, CANCELED, COMPLETED). */
  lineStatus?: string;
  nextPaymentAt?: Date | null;
}): Record<string, unknown> {
  const amount = args.amount ?? 19;
  const sign = args.type === 'RFND' || args.type === 'CGBK' ? -1 : 1;
  return {
    transactionTime: `${args.at.toISOString().slice(0, 19)}-00:00`,
    receipt: args.receipt,
    trackingId: null,
    paytmentMethod: 'VISA',
    transactionType: args.type,
    totalOrderAmount: sign * amount,
    totalShippingAmount: 0,
    totalTaxAmount: 0,
    vendor: 'mgclub',
    affiliate: null,
    country: 'US',
    state: 'TX',
    lastName: 'BUYER',
    firstName: 'JANE',
    currency: 'USD',
    declinedConsent: false,
    email: args.email,
    postalCode: '76520',
    role: 'VENDOR',
    fullName: 'Jane Buyer',
    customerRefundableState: null,
    vendorVariables: null,
    lineItemData: [
      {
        itemNo: 'mg-pro-m',
        productTitle: 'Pro Membership (Monthly)',
        recurring: true,
        shippable: false,
        customerAmount: sign * amount,
        accountAmount: (sign * Math.round(amount * 70)) / 100,
        quantity: 1,
        lineItemType: 'ORIGINAL',
        rebillAmount: amount,
        processedPayments: 1,
        futurePayments: 998,
        nextPaymentDate: args.nextPaymentAt
          ? `${args.nextPaymentAt.toISOString().slice(0, 19)}-00:00`
          : null,
        status: args.lineStatus ?? 'ACTIVE',
        role: 'VENDOR',
      },
    ],
  };
}
