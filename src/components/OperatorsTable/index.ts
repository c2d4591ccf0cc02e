export { OperatorsTable, type OperatorChange, type OperatorsTableProps } from './OperatorsTable';
