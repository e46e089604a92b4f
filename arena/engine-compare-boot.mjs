// Child-process bootstrap for `bench --baseline`: make TypeScript importable (tsx), then run one side of the
// comparison (engine-compare-child.ts), which imports the engine of the checkout it is given.
import { register } from 'tsx/esm/api';

register();
await import('./engine-compare-child.ts');
