export { FilterRow, optionsWithAny } from './FilterRow';
export type { FilterField, FilterRowProps } from './FilterRow';
