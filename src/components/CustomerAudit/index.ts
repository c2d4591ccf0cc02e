export { CustomerAudit, type CustomerAuditProps } from './CustomerAudit';
