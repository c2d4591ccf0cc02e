import fc from 'fast-check';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { defaultListQuery, listQueryFromSearch, listQueryToSearch } from '../../../src/domain/list';
import {
  DEFAULT_ISR_EVENTS_QUERY,
  ISR_EVENTS_LIST,
  isrEventsQueryFromList,
  isrSourceParam,
  averageOrderCents,
  isrPresetRange,
  isrProviderSplit,
  isrRangeToWire,
  matchingIsrPreset,
  pivotIsrDaily,
  type IsrEvent,
} from '../../../src/domain/isr';
import {
  ISR_CSV_COLUMNS,
  csvAmount,
  isrCsvFileName,
  isrEventsCsv,
  neutraliseCsvCell,
} from '../../../src/domain/isr-csv';
import { toWireDateTime } from '../../../src/domain/format';

const NOW = new Date('2026-11-20T12:00:00Z');

const EVENT: IsrEvent = {
  id: '7',
  createdAt: '2026-11-20T10:00:00Z',
  source: 'clickbank',
  orderId: 'O-1',
  receipt: 'R1',
  productId: 'mg-monthly',
  amountCents: 4700,
  currency: 'USD',
  affiliate: 'topaff',
  subid: 'tid-9',
  campaign: 'spring',
  customerEmail: 'ann@example.com',
  referrer: 'https://example.com/?a=1,b=2',
};

describe('§4 ISR range buttons and §5 wire format', () => {
  it.each([
    [7, '2026-11-14T00:00:00'],
    [14, '2026-11-07T00:00:00'],
    [30, '2026-10-22T00:00:00'],
  ] as const)('%iD: start of the day N−1 days ago through now', (days, from) => {
    expect(isrPresetRange(days, NOW)).toEqual({ from, to: '2026-11-20T12:00:00' });
    expect(matchingIsrPreset(isrPresetRange(days, NOW), NOW)).toBe(days);
  });

  it('a hand-made range matches no button', () => {
    expect(matchingIsrPreset({ from: '2026-11-01T00:00', to: '2026-11-20T12:00' }, NOW)).toBeNull();
  });

  it('datetime-local → YYYY-MM-DD HH:MM:SS, seconds added when missing', () => {
    expect(isrRangeToWire({ from: '2026-11-07T00:00', to: '2026-11-20T12:34:56' })).toEqual({
      from: '2026-11-07 00:00:00',
      to: '2026-11-20 12:34:56',
    });
    expect(isrRangeToWire({ from: '', to: 'garbage' })).toEqual({ from: '', to: '' });
  });

  it('property: the wire form of any valid datetime-local value has seconds', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1970-01-01'), max: new Date('9999-12-31'), noInvalidDate: true }),
        fc.boolean(),
        (d, withSeconds) => {
          const iso = d.toISOString();
          const local = withSeconds ? iso.slice(0, 19) : iso.slice(0, 16);
          const wire = toWireDateTime(local);
          expect(wire).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
          expect(wire).toBe(
            `${iso.slice(0, 10)} ${iso.slice(11, 16)}:${withSeconds ? iso.slice(17, 19) : '00'}`,
          );
        },
      ),
    );
  });
});

describe('cards and charts', () => {
  it('avg order = total amount ÷ total events', () => {
    const s = {
      totalAmountCents: 10000,
      totalEvents: 3,
      clickbankAmountCents: null,
      clickbankEvents: null,
      lemonsqueezyAmountCents: null,
      lemonsqueezyEvents: null,
    };
    expect(averageOrderCents(s)).toBe(3333);
    expect(averageOrderCents({ ...s, totalEvents: 0 })).toBeNull();
    expect(averageOrderCents({ ...s, totalAmountCents: null })).toBeNull();
  });

  it('pivots daily rows per provider, filling missing days with zeros', () => {
    const pivot = pivotIsrDaily(
      [
        { day: '2026-11-18', source: 'clickbank', events: 2, amountCents: 9400 },
        { day: '2026-11-18', source: 'LS', events: 1, amountCents: 1999 },
        { day: '2026-11-20', source: 'custom', events: 1, amountCents: 500 },
        { day: null, source: 'clickbank', events: 9, amountCents: 9 },
      ],
      '2026-11-17',
      '2026-11-20',
    );
    expect(pivot.providers).toEqual(['lemonsqueezy', 'clickbank', 'custom']);
    expect(pivot.amounts.map((r) => r.date)).toEqual([
      '2026-11-17',
      '2026-11-18',
      '2026-11-19',
      '2026-11-20',
    ]);
    expect(pivot.amounts[1]).toEqual({
      date: '2026-11-18',
      values: { lemonsqueezy: 1999, clickbank: 9400, custom: 0 },
      total: 11399,
    });
    expect(pivot.events[3]).toEqual({
      date: '2026-11-20',
      values: { lemonsqueezy: 0, clickbank: 0, custom: 1 },
      total: 1,
    });
    expect(pivotIsrDaily([])).toEqual({ amounts: [], events: [], providers: [] });
  });

  it('provider split by revenue, largest first, zero slices dropped', () => {
    expect(
      isrProviderSplit([
        { day: '2026-11-18', source: 'cb', events: 2, amountCents: 9400 },
        { day: '2026-11-19', source: 'clickbank', events: 1, amountCents: 600 },
        { day: '2026-11-18', source: 'lemonsqueezy', events: 1, amountCents: 1999 },
        { day: '2026-11-18', source: 'custom', events: 1, amountCents: 0 },
      ]),
    ).toEqual([
      { name: 'clickbank', cnt: 10000 },
      { name: 'lemonsqueezy', cnt: 1999 },
    ]);
  });
});

describe('§9 CSV export', () => {
  it('file name per page', () => {
    expect(isrCsvFileName(1)).toBe('isr-events_page1.csv');
    expect(isrCsvFileName(12)).toBe('isr-events_page12.csv');
    expect(isrCsvFileName(0)).toBe('isr-events_page1.csv');
  });

  it('the 13 columns in order, amount in currency units with two decimals', () => {
    const csv = isrEventsCsv([
      EVENT,
      { ...EVENT, id: '8', amountCents: -1250, referrer: null, campaign: null },
    ]);
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe(ISR_CSV_COLUMNS.join(','));
    expect(ISR_CSV_COLUMNS).toHaveLength(13);
    expect(lines[1]).toBe(
      '7,2026-11-20T10:00:00Z,clickbank,O-1,R1,mg-monthly,47.00,USD,topaff,tid-9,spring,ann@example.com,"https://example.com/?a=1,b=2"',
    );
    expect(lines[2]).toBe(
      '8,2026-11-20T10:00:00Z,clickbank,O-1,R1,mg-monthly,-12.50,USD,topaff,tid-9,,ann@example.com,',
    );
  });

  it('an empty page is the header line only', () => {
    expect(isrEventsCsv([])).toBe(ISR_CSV_COLUMNS.join(','));
  });

  it('neutralises formula-looking text cells', () => {
    for (const bad of ['=1+1', '+SUM(A1)', '-2+3', '@cmd', '\tx', '\rx'])
      expect(neutraliseCsvCell(bad)).toBe(`'${bad}`);
    for (const ok of ['abc', ' =x', '1=1', '']) expect(neutraliseCsvCell(ok)).toBe(ok);
    const csv = isrEventsCsv([
      { ...EVENT, affiliate: '=HYPERLINK("http://evil")', campaign: '@SUM(1)', receipt: '-1+2' },
    ]);
    const [, row] = Papa.parse<string[]>(csv).data;
    expect(row?.[8]).toBe('\'=HYPERLINK("http://evil")');
    expect(row?.[10]).toBe("'@SUM(1)");
    expect(row?.[4]).toBe("'-1+2");
  });

  it('csvAmount', () => {
    expect(csvAmount(4700)).toBe('47.00');
    expect(csvAmount(5)).toBe('0.05');
    expect(csvAmount(null)).toBe('');
  });

  it('property: any page reads back with 13 columns, no cell starting like a formula except numeric amounts', () => {
    const text = fc.option(fc.string({ maxLength: 20 }), { nil: null });
    const event = fc.record({
      id: text,
      createdAt: text,
      source: text,
      orderId: text,
      receipt: text,
      productId: text,
      amountCents: fc.option(fc.integer({ min: -1e9, max: 1e9 }), { nil: null }),
      currency: text,
      affiliate: text,
      subid: text,
      campaign: text,
      customerEmail: text,
      referrer: text,
    });
    fc.assert(
      fc.property(fc.array(event, { maxLength: 5 }), (events) => {
        const parsed = Papa.parse<string[]>(isrEventsCsv(events), { newline: '\r\n' }).data;
        expect(parsed).toHaveLength(events.length + 1);
        parsed.slice(1).forEach((row, i) => {
          expect(row).toHaveLength(13);
          row.forEach((cell, col) => {
            if (col === 6) expect(cell).toBe(csvAmount(events[i]!.amountCents));
            else expect(cell).not.toMatch(/^[=+\-@\t\r]/);
          });
        });
      }),
    );
  });
});

describe('the events list (§2 search form)', () => {
  it('source: default clickbank, any = none; text trimmed; the range as time_from/time_to', () => {
    const base = defaultListQuery(ISR_EVENTS_LIST);
    const range = { from: '2026-11-07 00:00:00', to: '2026-11-20 12:00:00' };
    expect(isrEventsQueryFromList(base, range)).toEqual({
      ...DEFAULT_ISR_EVENTS_QUERY,
      timeFrom: range.from,
      timeTo: range.to,
    });
    const q = {
      ...base,
      page: 3,
      filters: { ...base.filters, source: 'any', q: ' ann ', orderId: ' O-1 ' },
    };
    expect(isrEventsQueryFromList(q, range)).toMatchObject({
      source: '',
      q: 'ann',
      orderId: 'O-1',
      page: 3,
    });
    expect(isrSourceParam('lemonsqueezy')).toBe('lemonsqueezy');
  });

  it('URL round trip keeps the search and the page; junk source reads as the default', () => {
    const q = {
      ...defaultListQuery(ISR_EVENTS_LIST),
      page: 2,
      filters: {
        ...defaultListQuery(ISR_EVENTS_LIST).filters,
        affiliate: 'superaff',
        source: 'custom',
      },
    };
    expect(listQueryFromSearch(ISR_EVENTS_LIST, listQueryToSearch(ISR_EVENTS_LIST, q))).toEqual(q);
    expect(
      listQueryFromSearch(ISR_EVENTS_LIST, new URLSearchParams('source=paypal')).filters.source,
    ).toBe('');
  });
});
