import { Fragment } from 'react';
import { Link } from 'react-router-dom';
import { DASH, formatCount } from '../../domain/format';
import type { AuditPage } from '../../domain/audit';
import type { AsyncState } from '../../domain/types';
import { AuditDetail, AuditOutcomeBadge, AuditTime } from '../AuditTable';
import { Banner } from '../Banner';
import styles from './CustomerAudit.module.css';

/** Props of {@link CustomerAudit}. */
export interface CustomerAuditProps {
  /** The customer's newest audit rows (GET /audit?target=<email>&pageSize=20). */
  rows: AsyncState<AuditPage>;
  /** The Audit screen filtered by this customer, relative to the console's basename. */
  allRowsPath: string;
}

/**
 * Text that may break after each '@' and '.' (an email, a dotted action) rather than inside a
 * word, since the drawer's columns are narrow.
 */
function Breakable({ text }: { text: string }) {
  const parts = text.split(/(?<=[@.])/);
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </>
  );
}

/** 'The newest 20 of 57 rows' when the list is a part, else '3 rows'. */
function countText(page: AuditPage): string {
  const total = `${formatCount(page.total)}${page.isTotalCapped ? '+' : ''}`;
  if (page.rows.length < page.total || page.isTotalCapped) {
    return `The newest ${formatCount(page.rows.length)} of ${total} rows.`;
  }
  return `${total} ${page.total === 1 ? 'row' : 'rows'}.`;
}

/**
 * A customer's audit rows in the Subscriptions drawer: time (UTC), operator, action,
 * outcome and the detail on one line (opening to its JSON), newest first; loading, empty and
 * error states; and 'All audit rows', the Audit screen filtered by the customer. Pure.
 */
export function CustomerAudit({ rows, allRowsPath }: CustomerAuditProps) {
  const allRows = (
    <Link className={styles.link} to={allRowsPath}>
      All audit rows
    </Link>
  );
  if (rows.status === 'loading') {
    return (
      <p role="status" className={styles.muted}>
        Loading audit rows…
      </p>
    );
  }
  if (rows.status === 'error') {
    return (
      <div className={styles.stack}>
        <Banner tone="danger">{rows.message}</Banner>
        <p className={styles.plain}>{allRows}</p>
      </div>
    );
  }
  if (rows.status === 'empty') {
    return <p className={styles.muted}>No audit rows for this customer.</p>;
  }
  const page = rows.data;
  return (
    <div className={styles.stack}>
      <p className={styles.plain}>
        {countText(page)} {allRows}
      </p>
      <div className={styles.frame}>
        <table className={styles.table}>
          <caption className="visually-hidden">Audit rows of this customer</caption>
          <thead>
            <tr>
              <th scope="col">Time (UTC)</th>
              <th scope="col">Operator</th>
              <th scope="col">Action</th>
              <th scope="col">Outcome</th>
              <th scope="col">Detail</th>
            </tr>
          </thead>
          <tbody>
            {page.rows.map((row) => (
              <tr key={row.id}>
                <td data-kind="number">
                  <AuditTime at={row.at} />
                </td>
                <td data-kind="text">
                  {row.operatorEmail ? <Breakable text={row.operatorEmail} /> : DASH}
                </td>
                <td data-kind="code">{row.action ? <Breakable text={row.action} /> : DASH}</td>
                <td>
                  <AuditOutcomeBadge outcome={row.outcome} />
                </td>
                <td data-kind="detail">
                  <AuditDetail detail={row.detail} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
