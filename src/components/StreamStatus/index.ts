export {
  StreamStatus,
  StreamStateIcon,
  streamStatusName,
  type StreamStatusProps,
  type StreamStateIconProps,
} from './StreamStatus';
