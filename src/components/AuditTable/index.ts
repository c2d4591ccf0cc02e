export {
  AUDIT_COLUMNS,
  AuditDetail,
  AuditOutcomeBadge,
  AuditTable,
  AuditTime,
  type AuditTableProps,
} from './AuditTable';
