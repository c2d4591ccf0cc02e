export {
  AUDIT_FILTER_FIELDS,
  AuditView,
  type AuditExportState,
  type AuditViewProps,
} from './AuditView';
