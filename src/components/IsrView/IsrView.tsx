import { useId } from 'react';
import type {
  IsrAffiliateRow,
  IsrDailyPivot,
  IsrEvent,
  IsrEventsFilters,
  IsrProviderSlice,
  IsrRangeDays,
  IsrSummary,
  LocalRange,
} from '../../domain/isr';
import type { AsyncState } from '../../domain/types';
import { Button } from '../Button';
import { FilterRow, type FilterField } from '../FilterRow';
import { IsrCharts } from '../IsrCharts';
import { IsrEventsTable } from '../IsrEventsTable';
import { IsrRangeControls } from '../IsrRangeControls';
import { IsrSummaryCards } from '../IsrSummaryCards';
import { PageHeader } from '../PageHeader';
import styles from './IsrView.module.css';

/** §2 search form fields; source '' is the default clickbank, 'any' no filter. */
export const ISR_SEARCH_FIELDS: readonly FilterField<IsrEventsFilters>[] = [
  { kind: 'text', key: 'q', label: 'Search (receipt, order, affiliate, email…)', type: 'search' },
  {
    kind: 'select',
    key: 'source',
    label: 'Source',
    options: [
      { value: 'any', label: 'any' },
      { value: '', label: 'clickbank' },
      { value: 'lemonsqueezy', label: 'lemonsqueezy' },
      { value: 'custom', label: 'custom' },
    ],
  },
  { kind: 'text', key: 'affiliate', label: 'Affiliate' },
  { kind: 'text', key: 'subid', label: 'SubID / TID' },
  { kind: 'text', key: 'receipt', label: 'Receipt' },
  { kind: 'text', key: 'orderId', label: 'Order ID' },
];

/** Props of {@link IsrView}. */
export interface IsrViewProps {
  /** The range inputs' values (UTC datetime-local) and the pressed button, if any. */
  range: LocalRange;
  activeDays: IsrRangeDays | null;
  /** Any of the screen's loads is running (Refresh reads 'Refreshing…'). */
  isRefreshing: boolean;
  /** The summary load; a failure shows dashes and no message (§8: this page shows no errors). */
  summary: AsyncState<IsrSummary>;
  daily: AsyncState<IsrDailyPivot>;
  affiliates: AsyncState<readonly IsrAffiliateRow[]>;
  split: AsyncState<readonly IsrProviderSlice[]>;
  /** The search form's values (applied on Search). */
  filters: IsrEventsFilters;
  /** The events page and its paging. */
  events: AsyncState<readonly IsrEvent[]>;
  page: number;
  totalPages: number | null;
  total: number | null;
  /** A search the server stopped counting at `total` ('Total: 1,000+ events'). */
  isTotalCapped?: boolean;
  isEventsRefreshing: boolean;
  /** Width available to the charts, px (0 = not measured yet). */
  chartWidth: number;
  onPresetChange: (days: IsrRangeDays) => void;
  onRangeChange: (range: LocalRange) => void;
  onRefresh: () => void;
  onFiltersChange: (next: IsrEventsFilters) => void;
  /** Search: apply the form, back on page 1 (§4). */
  onSearch: () => void;
  /** Export CSV of the current page (§9). */
  onExportCsv: () => void;
  onPageChange: (page: number) => void;
}

/**
 * The Integrated Tracking screen's view (§2): range controls, four cards, four charts, the
 * search form (Search, Export CSV) and the events table with its pager. Pure. §8 "The ISR events
 * page shows no error messages": a failed load reads as no data (cards '—', charts and table
 * empty); the red 'ISR: …' line belongs to the Metrics page only.
 */
export function IsrView(props: IsrViewProps) {
  const titleId = useId();
  const eventsId = useId();
  const canExport = props.events.status === 'ready' && props.events.data.length > 0;
  return (
    <section className={styles.view} aria-labelledby={titleId}>
      <PageHeader title="Integrated Tracking (First-Party)" titleId={titleId} />
      <IsrRangeControls
        range={props.range}
        activeDays={props.activeDays}
        isRefreshing={props.isRefreshing}
        onPresetChange={props.onPresetChange}
        onRangeChange={props.onRangeChange}
        onRefresh={props.onRefresh}
      />
      <h2 className="visually-hidden">Summary</h2>
      <IsrSummaryCards
        state={props.summary.status === 'error' ? { status: 'empty' } : props.summary}
        averageLabel="Avg order (approx)"
      />
      {props.chartWidth > 0 ? (
        <>
          <h2 className="visually-hidden">Charts</h2>
          <IsrCharts
            daily={props.daily}
            affiliates={props.affiliates}
            split={props.split}
            width={props.chartWidth}
          />
        </>
      ) : null}
      <section className={styles.events} aria-labelledby={eventsId}>
        <h2 id={eventsId} className={styles.heading}>
          Events
        </h2>
        <FilterRow
          label="Search events"
          fields={ISR_SEARCH_FIELDS}
          values={props.filters}
          onValuesChange={props.onFiltersChange}
          onSubmit={props.onSearch}
          submitLabel="Search"
          actions={
            <Button onClick={props.onExportCsv} aria-disabled={!canExport || undefined}>
              Export CSV
            </Button>
          }
        />
        <IsrEventsTable
          rows={props.events}
          page={props.page}
          totalPages={props.totalPages}
          total={props.total}
          isTotalCapped={props.isTotalCapped}
          isRefreshing={props.isEventsRefreshing}
          onPageChange={props.onPageChange}
        />
      </section>
    </section>
  );
}
