export { IsrSummaryCards, type IsrSummaryCardsProps } from './IsrSummaryCards';
