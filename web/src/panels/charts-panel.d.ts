// STAND-IN for the type check only (tsconfig.json): the types of charts-panel.js as the playground
// sees them, while charts-panel.js is excluded from the check (typed by the play-seams branch).
// Delete it with the exclusion (at the merge).
import type { EvalMetrics, StepMetrics } from '../wasm-api';
import type { LineChart } from '../charts/line-chart.js';

export class ChartsPanel {
  constructor(grid: HTMLElement, opts?: { logScale?: boolean });
  charts: LineChart[];
  seqLen?: number;
  setEvalLengths(seqLen: number, evalLen: number): void;
  add(batch: { steps: StepMetrics[]; evals: EvalMetrics[] }): void;
  reset(): void;
  pin(label: string): void;
  unpin(): void;
  setPinnedLabel(label: string): void;
  setLogScale(on: boolean): void;
}
