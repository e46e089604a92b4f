// Worker-thread bootstrap: make TypeScript importable in this thread (tsx), then load the self-play worker.
import { register } from 'tsx/esm/api';

register();
const mod = await import('./selfplay-worker.ts');
export default mod.default;
