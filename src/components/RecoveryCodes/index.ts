export { RecoveryCodes, type RecoveryCodesProps } from './RecoveryCodes';
