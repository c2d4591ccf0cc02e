/**
 * The movement colours: gains in greens and blues, losses in amber and red, each with ≥ 3:1
 * contrast on the white surface (WCAG 1.4.11); the chart never relies on colour alone (legend,
 * tooltip and table name every movement).
 */
import type { MovementKind } from '../../domain/revenue';

/** Colour of each movement's bars. */
export const MOVEMENT_COLORS: Readonly<Record<MovementKind, string>> = {
  new: '#16a34a',
  expansion: '#0e7490',
  reactivation: '#4338ca',
  contraction: '#a16207',
  churn: '#dc2626',
};
