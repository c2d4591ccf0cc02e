export { StreamStatus, streamStatusName, type StreamStatusProps } from './StreamStatus';
