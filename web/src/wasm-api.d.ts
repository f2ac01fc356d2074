// Hand-written types of the Embind API of web/src/wasm/{simd,scalar,threads}/attnplay.mjs (Emscripten
// 3.1.6 has no --emit-tsd). Structured results cross the boundary as JSON strings; model files as
// Uint8Array copies. Every method throws a JS Error with a readable message on bad input.
// Every Session must be .delete()d (try/finally). This file is the contract of the type check
// (tsconfig.json, run by npm test): web/src/wasm/*/attnplay.d.mts re-export it.
// One name per thing: Session is ap::Session (core/session/session.hpp) as Embind exposes it, with
// the C++ names in camelCase (trainChunk = train_chunk, stepsDone = steps_done, replayIndex /
// replayFrame = Replay::index / frame); the worker wraps it in ModuleSession (worker/session.js)
// and the page sees it as EngineSession (client/session.js).

/** One field of the config schema, or one option of an encoding / normalization. */
export interface FieldSchema {
  key: string;
  kind: 'int' | 'float' | 'bool' | 'enum' | 'string';
  default: number | boolean | string;
  help: string;
  choices?: string[];
  min?: number;
  max?: number;
}

export interface TaskEntry {
  name: string;
  description: string;
  /** One encoded example: "in: ... | tgt: ... | mask: ..." */
  example: string;
  /** Config values the task sets, including its own options (e.g. vocab). */
  defaults: Record<string, number | boolean | string>;
  /** The task's own options (kind from the default's type; ranges are checked by the core). */
  options: FieldSchema[];
}

/** A position encoding or attention normalization, as described by the core. */
export interface VariantDescription {
  name: string;
  title: string;
  /** LaTeX */
  formula: string;
  note: string;
  options: FieldSchema[];
  // positions: absolute, biases_logits, extrapolates, logits_only, params, where
  // normalizations: accepts_bias, row_sum ('one' | ...), stable
  [key: string]: unknown;
}

export interface Registry {
  tasks: TaskEntry[];
  positions: VariantDescription[];
  normalizations: VariantDescription[];
  config: FieldSchema[];
  /** The config fields a live Session's configure() may change (Session::live_keys). */
  live_keys: string[];
  /** Fields read under an older name too, {old: current} (core/config: renamed_fields()). */
  renamed: Record<string, string>;
}

/** Every config field by key; task / encoding / normalization options included. */
export type Config = Record<string, number | boolean | string>;

/** A refusal's structure (core/refusal/refusal.hpp): set as `refusal` on every Error the module throws. */
export type Refusal = { code: string; field: string; params: Record<string, string>; where?: string };
export type CheckResult = { ok: true; config: Config } | { ok: false; error: string; refusal: Refusal };

export interface StepMetrics {
  step: number;
  loss: number;
  token_accuracy: number;
  sequence_accuracy: number;
  bits_per_token: number;
  grad_norm: number;
  lr: number;
  tokens_per_s: number;
  /** NaN/Inf: the update was not applied; `message` says why */
  refused: boolean;
  message?: string;
}

export interface EvalMetrics {
  step: number;
  length: number;
  loss: number;
  token_accuracy: number;
  sequence_accuracy: number;
  bits_per_token: number;
}

export interface TrainResult {
  steps: StepMetrics[];
  evals: EvalMetrics[];
}

export interface PredictionExample {
  inputs: string[];
  /** per token ("" where unmasked), or one class name for per-sequence tasks */
  target: string[] | string;
  prediction: string[];
  confidence: number[];
  mask?: boolean[];
  correct: boolean;
}

export interface Predictions {
  per_sequence: boolean;
  examples: PredictionExample[];
}

/** A head intervention (core/session_interventions.cpp): declared fields only. `position` is
 * the key (kind 'position') or the patched query (kind 'patch', all when absent), anchors
 * included; `offset` for kind 'offset'; `donor` (held-out example 0..batch-1) for 'patch'. */
export interface Intervention {
  layer: number;
  head: number;
  kind: 'zero' | 'uniform' | 'previous' | 'position' | 'offset' | 'patch';
  position?: number;
  offset?: number;
  donor?: number;
  /** set by the engine: "layer 0 head 1: zero" */
  label?: string;
}

/** Session.intervened(n): the held-out evaluation at seq_len with and without the interventions. */
export interface InterventionResult {
  step: number;
  interventions: Intervention[];
  base: EvalMetrics;
  intervened: EvalMetrics;
  /** n held-out examples both ways (absent when n = 0) */
  predictions?: { base: Predictions; intervened: Predictions };
}

export type Matrix = number[][];

export interface HeadAttention {
  weights: Matrix; // (T, T) query rows, key columns
  logits: Matrix; // (T, T)
  row_sums: number[]; // (T)
}

export interface RunResult {
  tokens: string[];
  layers: { heads: HeadAttention[] }[];
  probs: Matrix; // (rows, classes)
  hidden: Matrix; // (T, C)
}

/** Position-encoding display data: `kind`, `describe`, then any numeric arrays or scalars
 * (matrix, similarity, bias (NH×T×T), buckets, angles, slopes, theta, ...). */
export interface PositionDisplay {
  kind: string;
  describe: VariantDescription & { where: string; extrapolates: boolean; params: number };
  [key: string]: unknown;
}

/** Session.explore's request: every field optional (length 2..512 distances, layer, pair i,
 * slider position, RoPE scaling none|pi|ntk|yarn at factor 1..64, seed of the random probe). */
export interface ExploreRequest {
  length?: number;
  layer?: number;
  pair?: number;
  position?: number;
  scaling?: 'none' | 'pi' | 'ntk' | 'yarn';
  factor?: number;
  seed?: number;
}

/** Per probe name (trained, init, ones, random): one row per head. */
export type ProbeRows = Record<string, Matrix>;

/** An encoding's Explore data (core/position/explore.hpp); `kind` says which fields follow. */
export interface ExploreView {
  kind?: 'rotary' | 'bias' | 'absolute';
  /** LaTeX of the plotted quantity, and the file · function that computes it */
  formula?: string;
  source?: string;
  /** distance d = i − j (query − key); absolute: the offset from the reference position */
  distance?: number[];
  // rotary: s(d) = q̃_d·k̃_0, and the same / (‖q‖‖k‖)
  score?: ProbeRows;
  cosine?: ProbeRows;
  scaled?: { scaling: string; factor: number; mscale: number; theta: number; score: ProbeRows; cosine: ProbeRows };
  pairs?: number;
  rotated_dims?: number;
  train_len?: number;
  pair?: {
    index: number;
    theta: number;
    wavelength: number;
    position: number;
    angle: number;
    share: ProbeRows;
    q: ProbeRows;
    q_rotated: ProbeRows;
    k: ProbeRows;
    k_rotated: ProbeRows;
  };
  // bias: one row per head; quantity bias | multiplier
  heads?: Matrix;
  quantity?: 'bias' | 'multiplier';
  buckets?: number[];
  bucket_starts?: number[];
  max_exact?: number;
  value_norm?: number[];
  // absolute: cosine similarity, mean over positions and from the reference position (null off the table)
  mean?: number[];
  from?: (number | null)[];
  length?: number;
  [key: string]: unknown;
}

/** Session.explore's answer: the encoding now and at initialisation (same config and seed). */
export interface ExploreData {
  now: ExploreView;
  init: ExploreView;
  step: number;
  request: Required<ExploreRequest>;
  describe: VariantDescription;
}

export interface SessionInfo {
  config: Config;
  step: number;
  /** Why training last stopped on a refused (NaN/Inf) step; "" when the last step went through. */
  stopped: string;
  vocab: string[];
  classes: string[];
  per_sequence: boolean;
  parameters: { name: string; shape: number[] }[];
  parameter_count: number;
  position: VariantDescription;
  normalization: VariantDescription;
}

/** The replay's index (core/session/frames.cpp): bounded in count and bytes for any run length. */
export interface ReplayIndex {
  /** ascending; the last is `latest` (its frame is made on demand) */
  steps: number[];
  latest: number;
  /** frames kept in memory (the latest not counted unless it is on the schedule) */
  kept: number;
  bytes: number;
  max_count: number;
  max_bytes: number;
  /** points per octave of the log grid now */
  density: number;
  enabled: boolean;
  /** one frame alone was too large to keep: only the latest step replays */
  too_large: boolean;
}

/** One replay frame: what the attention and position panels draw for held-out example 0. */
export interface ReplayFrame {
  step: number;
  attention: { tokens: string[]; layers: { heads: HeadAttention[] }[] };
  positions: PositionDisplay;
  prediction: PredictionExample;
  per_sequence: boolean;
}

/** One label a head earned (core/model/head_stats.cpp), with the measured value against its threshold. */
export interface HeadLabel {
  name: 'previous-token' | 'first-token / sink' | 'uniform' | 'positional' | 'induction';
  /** e.g. "93% of each row on the previous token (threshold 50%)" */
  evidence: string;
}

/** What one head does on one replay frame (core/model/head_stats.hpp: HeadStats::to_json). */
export interface HeadMeasures {
  /** mean row entropy over log(keys): 0 = one key, 1 = uniform */
  entropy: number;
  /** mean attended distance |i - j| (positions) */
  distance: number;
  /** mean share of each row on the first token */
  first_share: number;
  /** mean share on the anchor tokens; -1 without anchors */
  anchor_share: number;
  /** max - min of the rows' sums (0 for row-stochastic maps) */
  row_sum_spread: number;
  prev_share: number;
  /** the fixed offset i - j (not 1) with the largest mean share, and that share */
  offset: number;
  offset_share: number;
  /** share on the token after an earlier copy of the current one; -1 when too few rows repeat */
  induction: number;
  /** what a uniform row would put there (the induction label needs at least twice it); -1 with induction */
  induction_chance: number;
}

/** A label's rule as the UI states it: `measure >= threshold`. */
export interface HeadThreshold {
  label: HeadLabel['name'];
  measure: keyof HeadMeasures;
  threshold: number;
  rule: string;
}

/** Session.headDiagnostics: every head of one replay frame (held-out example 0). */
export interface HeadDiagnostics {
  step: number;
  thresholds: HeadThreshold[];
  /** withheld: why a head whose share reached the induction threshold is not labelled so (no previous-token head below it) */
  layers: { heads: (HeadMeasures & { labels: HeadLabel[]; withheld?: string })[] }[];
}

/** Session.headDiagnosticsHistory: each measure of each head over the replay's steps. */
export interface HeadHistory {
  /** the replay's steps (ReplayIndex.steps), the latest last */
  steps: number[];
  measures: (keyof HeadMeasures)[];
  /** layers[l].heads[h][measure][k]: the value at steps[k] */
  layers: { heads: Record<keyof HeadMeasures, number[]>[] }[];
}

/** Embind class: `new module.Session(configJson)`. */
export interface Session {
  /** n steps, 0..1000000 (Session::train_chunk; evaluating every eval_every): JSON of TrainResult */
  trainChunk(n: number): string;
  /** JSON of EvalMetrics on held-out data at `length` (0 = seq_len) */
  evaluate(length: number): string;
  // The views (predictions ... generate) are ap::Session's Inspector in C++ (core/session/inspect.hpp),
  // the same names on this object.
  /** JSON of Predictions: n held-out examples at `length` (0 = seq_len); deterministic per seed */
  predictions(n: number, length: number): string;
  /** JSON of RunResult for held-out example `example` (0..63) at `length` (0 = seq_len) */
  attention(length: number, example: number): string;
  /** JSON of RunResult for the given token ids (JSON array, anchors included) */
  run(idsJson: string): string;
  /** JSON of PositionDisplay at `length` (0 = the model's length) */
  positions(length: number): string;
  /** JSON of ExploreData for a JSON ExploreRequest; throws an Error naming a bad field */
  explore(requestJson: string): string;
  /** Continue a prompt: JSON {mode, ids, tokens, probs, text}; see core/session/inspect.hpp. */
  generate(prompt: string, maxNew: number, temperature: number, topK: number, seed: number): string;
  /** JSON of SessionInfo */
  info(): string;
  /** Replace the head interventions by a JSON array of Intervention; returns the list as kept
   * (with labels); throws an Error naming the entry and field ("interventions[0].head: ..."). */
  setInterventions(listJson: string): string;
  clearInterventions(): void;
  /** JSON of InterventionResult with n (0..64) held-out examples' predictions both ways */
  intervened(n: number): string;
  /**
   * Change optimizer fields of the live session (only Registry.live_keys: lr, clip, warmup,
   * schedule, weight_decay, steps), e.g. '{"lr":0.001}' after a refused step; weights and step
   * are kept. Returns the whole config as JSON; throws an Error naming the field when the change
   * is not allowed.
   */
  configure(fieldsJson: string): string;
  /** steps done (Session::steps_done) */
  stepsDone(): number;
  /** JSON of ReplayIndex: the steps that have a replay frame (log-spaced, at most 64, the latest included) */
  replayIndex(): string;
  /** JSON of ReplayFrame at one of ReplayIndex.steps; throws an Error naming the kept steps otherwise */
  replayFrame(step: number): string;
  /** Replay frames kept (the default) or not (none taken, the kept ones dropped) */
  setReplay(on: boolean): void;
  /** JSON of HeadDiagnostics at one of ReplayIndex.steps (-1: the latest); throws as replayFrame() */
  headDiagnostics(step: number): string;
  /** JSON of HeadHistory over ReplayIndex.steps */
  headDiagnosticsHistory(): string;
  /** safetensors bytes (weights, optimizer state, metadata): a copy, not a view */
  save(): Uint8Array;
  /** the model as one standalone PyTorch file (Python source; core/torch/export.hpp); throws naming
   * the position encoding or normalization that has no PyTorch form */
  exportTorch(): string;
  delete(): void;
}

export interface SessionConstructor {
  new (configJson: string): Session;
  load(bytes: Uint8Array): Session;
  /** A session from a model file with config fields replaced, e.g. '{"rope_scaling":"ntk"}'. */
  loadWith(bytes: Uint8Array, overridesJson: string): Session;
}

export interface AttnplayModule {
  version(): string;
  /** 'sse4.1' in the SIMD build, 'scalar' otherwise */
  simdArch(): string;
  simdEnabled(): boolean;
  /** Threads the kernels use (1..pthreadPoolSize + 1 in the threads build; only 1 elsewhere). */
  setThreads(n: number): void;
  threads(): number;
  /** true in the threads build (SharedArrayBuffer, crossOriginIsolated pages only) */
  threadsSupported(): boolean;
  /** threads build under Node: let the process exit while its pthread workers idle */
  unrefThreads?(): void;
  /** JSON of Registry without its prose (titles, formulas, notes, help are empty: core/common/doc.hpp);
   * the page imports the whole registry from web/src/state/registry.gen.js */
  registry(): string;
  /** JSON of CheckResult (never throws for a bad config) */
  checkConfig(configJson: string): string;
  /** JSON of [{code, en}]: every declared refusal code and its English template ("" in the browser's
   * module, which has none: its Errors' message is the code, and the worker says it in words) */
  refusalCodes(): string;
  Session: SessionConstructor;
}

export default function createAttnplay(options?: {
  locateFile?: (path: string) => string;
  wasmBinary?: ArrayBuffer | Uint8Array;
  /** threads build: Web Workers started for its pthreads (threads - 1), and the URL of this
   * module, which they import */
  pthreadPoolSize?: number;
  mainScriptUrlOrBlob?: string;
  /** split modules (simd, scalar): instantiates attnplay.deferred.wasm with these imports, which
   * fills the function table (build-scripts/wasm-split.mjs) */
  loadSplitModule?: (file: string, imports: WebAssembly.Imports, name: string) => void;
  /** the glue's messages (stderr) */
  printErr?: (text: string) => void;
}): Promise<AttnplayModule>;
