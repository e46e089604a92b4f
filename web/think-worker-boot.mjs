// Worker-thread bootstrap: make TypeScript importable in this thread (tsx), then load the web table's thinker.
// Needed wherever the parent did not start with tsx's loader (e.g. under the test runner).
import { register } from 'tsx/esm/api';

register();
const mod = await import('./think-worker.ts');
export default mod.default;
