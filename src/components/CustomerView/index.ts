export { CustomerView, type CustomerViewProps } from './CustomerView';
export {
  CustomerTimeline,
  type CustomerTimelineProps,
  type TimelineEntries,
} from './CustomerTimeline';
export {
  CustomerForum,
  CustomerMoney,
  CustomerOrders,
  CustomerSubscriptions,
  type CustomerForumProps,
  type CustomerMoneyProps,
  type CustomerOrdersProps,
  type CustomerSubscriptionsProps,
} from './CustomerSections';
