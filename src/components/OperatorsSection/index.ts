export {
  OperatorsSection,
  type OperatorsNotice,
  type OperatorsSectionProps,
} from './OperatorsSection';
