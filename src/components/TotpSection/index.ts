export { TotpSection, type TotpSectionProps, type TotpState } from './TotpSection';
export { type TotpDisableState } from './TotpDisableDialog';
