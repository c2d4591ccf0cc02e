export { IsrView, ISR_SEARCH_FIELDS, type IsrViewProps } from './IsrView';
