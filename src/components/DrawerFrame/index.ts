export { DrawerFrame, type DrawerFrameProps } from './DrawerFrame';
