// STAND-IN for the type check only (tsconfig.json): the types of run-controller.js as its callers
// see them, while run-controller.js is excluded from the check (typed by the play-seams branch).
// tsc resolves './run-controller.js' to this file, so the playground, the widgets and the demos
// are checked against it. Delete it when the exclusion in tsconfig.json goes (at the merge).
import type { CheckResult, Config, EvalMetrics, SessionInfo, StepMetrics } from '../wasm-api';
import type { Session } from '../client/session.js';

/** Reasons a model stops without anything being wrong (any other reason: a refused NaN/Inf step). */
export const STOP_REASONS: string[];

export interface MetricsBatch {
  steps: StepMetrics[];
  evals: EvalMetrics[];
  step: number;
}

export interface RunState {
  playing: boolean;
  reason: string;
  step: number;
  stalled: boolean;
}

/** What a page does at each point of a run (every hook optional). */
export interface RunViews {
  building?(): void;
  checked?(check: CheckResult): void;
  failed?(err: Error): void;
  adopted?(model: Session): void;
  fresh?(info: SessionInfo): void | Promise<void>;
  ready?(info: SessionInfo): void;
  metrics?(batch: MetricsBatch): void;
  state?(state: RunState): void;
  restored?(model: Session, detail: { playing: boolean; step: number }): void;
  snapshot?(model: Session, current: () => boolean): Promise<void>;
  error?(err: Error): void;
}

export interface RunClient {
  checkConfig(config: Config): Promise<CheckResult>;
  create(config: Config): Promise<Session>;
}

export class RunController {
  constructor(client: RunClient, views: RunViews, timing?: { refreshMs?: number; flushMs?: number });
  client: RunClient;
  views: RunViews;
  refreshMs: number;
  flushMs: number;
  /** the current model (null while none) */
  model: Session | null;
  step: number;
  stalled: boolean;
  token: number;
  disposed: boolean;
  refresh(): Promise<void>;
  apply(config: Config, opts?: { check?: boolean }): Promise<'ready' | 'invalid' | 'failed' | 'stale'>;
  cancel(): void;
  adopt(model: Session, opts?: { fresh?: boolean }): Promise<void>;
  fresh(info: SessionInfo): Promise<void>;
  play(opts?: { steps?: number; until?: number; speed?: number; every?: number }): Promise<unknown> | undefined;
  pause(): Promise<unknown> | undefined;
  stepBy(n?: number): Promise<void>;
  reset(): Promise<void>;
  stateChanged(detail: { playing: boolean; reason: string; step?: number }): void;
  flush(): void;
  dispose(): Promise<void>;
}
