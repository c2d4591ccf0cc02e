export { CustomerLink, type CustomerLinkProps } from './CustomerLink';
