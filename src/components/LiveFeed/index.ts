export { LiveFeed, liveEventAmount, liveEventProvider, type LiveFeedProps } from './LiveFeed';
export { LiveFeedButton, liveFeedButtonName, type LiveFeedButtonProps } from './LiveFeedButton';
