// The handles the pages put on `window` for the console and the browser tests (main.js of the
// playground, demos/page.js), declared for the type check (tsconfig.json).
import type { Playground } from './playground/playground.js';
import type { WorkerPool } from '../client/pool.js';

declare global {
  interface Window {
    playground?: Playground;
    /** the mounted demo: mount()'s result of the demo module */
    demo?: import('../demos/common.js').DemoHandle;
    demoPool?: WorkerPool;
    /** the course's page (pages/course/main.js) */
    coursePage?: object;
  }
}

export {};
