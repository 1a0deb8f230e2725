import { ensureToolchainImages } from '@faun/services';

const tags = await ensureToolchainImages(undefined, (l) => console.log(l));
console.log(tags.join('\n'));
