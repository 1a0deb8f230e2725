/** faun's version, from the workspace's root package.json. */
import rootPkg from '../../../package.json' with { type: 'json' };

export const FAUN_VERSION: string = rootPkg.version;
