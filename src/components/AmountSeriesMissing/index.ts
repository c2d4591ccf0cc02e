export { AmountSeriesMissing, type AmountSeriesMissingProps } from './AmountSeriesMissing';
