export {
  AppLayout,
  MAIN_NAV,
  MAIN_CONTENT_ID,
  type AppLayoutProps,
  type LayoutViewport,
  type MainNavEntry,
} from './AppLayout';
export { PRODUCT_TITLE, VERSION_LABEL, PROVIDER_LINKS, type ExternalLink } from './brand';
