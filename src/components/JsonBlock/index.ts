export { JsonBlock, type JsonBlockProps } from './JsonBlock';
export { prettyJson } from './prettyJson';
