export { ReconcileResult, type ReconcileResultProps } from './ReconcileResult';
