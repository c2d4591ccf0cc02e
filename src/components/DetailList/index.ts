export { DetailList, type DetailItem, type DetailListProps } from './DetailList';
