/** `faun verify`'s options for prebuilt images: trusting rows, allowed namespaces, the digest lock. */
import { type CommandContext, type OptionSpec, UsageError } from '@faun/kit';
import { DEFAULT_IMAGE_ALLOW, ImageLockState } from './image-trust.ts';

export const IMAGE_TRUST_OPTIONS: OptionSpec[] = [
  {
    name: 'trust-rows',
    type: 'boolean',
    default: false,
    description:
      "trust the instances file: use what a row names itself — its own eval_script and test_cmd, and its image (only from --image-allow namespaces). Off: a row's image is ignored, and a row with its own test_cmd is bad input",
  },
  {
    name: 'image-allow',
    type: 'list',
    arg: 'PREFIX',
    repeatable: true,
    description: `namespaces a trusted row's image may come from (default ${DEFAULT_IMAGE_ALLOW.join(', ')})`,
  },
  {
    name: 'image-lock',
    type: 'string',
    arg: 'FILE',
    description:
      'pin prebuilt images by content id: an image whose id differs from FILE (a tag that moved), or that FILE lacks, is refused',
  },
  {
    name: 'update-image-lock',
    type: 'boolean',
    default: false,
    description: 'with --image-lock: add images the lock lacks (a moved image is still refused)',
  },
];

/** The VerifyOptions these options give. */
export function imageTrustOf(ctx: CommandContext): {
  trustRows: boolean;
  imageAllow: string[];
  imageLock?: ImageLockState;
} {
  const o = ctx.opts;
  const allow = (o.imageAllow as string[] | undefined) ?? [];
  if (allow.length && !o.trustRows)
    throw new UsageError('--image-allow applies to rows trusted with --trust-rows', {
      hint: 'add --trust-rows, or drop --image-allow',
    });
  if (o.updateImageLock && !o.imageLock) throw new UsageError('--update-image-lock needs --image-lock FILE');
  return {
    trustRows: Boolean(o.trustRows),
    imageAllow: allow.length ? allow : DEFAULT_IMAGE_ALLOW,
    ...(o.imageLock
      ? { imageLock: ImageLockState.open(String(o.imageLock), Boolean(o.updateImageLock)) }
      : {}),
  };
}
