/**
 * Which parser reads an instance's log. The reference the row comes from decides: a SWE-bench row gets
 * SWE-bench's per-repository choice (its MAP_REPO_TO_PARSER), a Multi-SWE-bench row the parser of
 * Multi-SWE-bench's instance class for that repository.
 */
import { type PrRange, prRangeHit } from '../envs/spec-versions.ts';
import type { ParserName } from './index.ts';

export type GraderSource = 'swebench' | 'multi-swe-bench';

/** `owner/repo` → parser, as SWE-bench chooses. One line per repository. */
export const SWEBENCH_PARSERS: Record<string, ParserName> = {
  'projectlombok/lombok': 'swebench-ant',
  'carbon-design-system/carbon': 'swebench-carbon',
  'diegomura/react-pdf': 'swebench-carbon',
  'prettier/prettier': 'swebench-carbon',
  'scratchfoundation/scratch-gui': 'swebench-carbon',
  'astral-sh/ruff': 'swebench-cargo',
  'burntsushi/ripgrep': 'swebench-cargo',
  'nushell/nushell': 'swebench-cargo',
  'sharkdp/bat': 'swebench-cargo',
  'tokio-rs/axum': 'swebench-cargo',
  'tokio-rs/tokio': 'swebench-cargo',
  'uutils/coreutils': 'swebench-cargo',
  'chartjs/Chart.js': 'swebench-chart-js',
  'emotion-js/emotion': 'swebench-emotion',
  'fmtlib/fmt': 'swebench-googletest',
  'caddyserver/caddy': 'swebench-gotest',
  'gin-gonic/gin': 'swebench-gotest',
  'gohugoio/hugo': 'swebench-gotest',
  'hashicorp/terraform': 'swebench-gotest',
  'prometheus/prometheus': 'swebench-gotest',
  'apache/lucene': 'swebench-gradle',
  'reactivex/rxjava': 'swebench-gradle',
  'grommet/grommet': 'swebench-grommet',
  'highlightjs/highlight.js': 'swebench-highlightjs',
  'babel/babel': 'swebench-jest',
  'facebook/docusaurus': 'swebench-jest',
  'jqlang/jq': 'swebench-jq',
  'preactjs/preact': 'swebench-karma',
  'markedjs/marked': 'swebench-marked',
  'apache/druid': 'swebench-maven',
  'google/gson': 'swebench-maven',
  'javaparser/javaparser': 'swebench-maven',
  'micropython/micropython': 'swebench-micropython',
  'redis/redis': 'swebench-redis',
  'valkey-io/valkey': 'swebench-redis',
  'axios/axios': 'swebench-tap',
  'mrdoob/three.js': 'swebench-tap',
  'vuejs/core': 'swebench-vitest',
  'astropy/astropy': 'pytest-v2',
  'django/django': 'django',
  'matplotlib/matplotlib': 'matplotlib',
  'mwaskom/seaborn': 'seaborn',
  'pallets/flask': 'pytest',
  'psf/requests': 'pytest-options',
  'pydata/xarray': 'pytest',
  'pylint-dev/pylint': 'pytest-options',
  'pytest-dev/pytest': 'pytest',
  'scikit-learn/scikit-learn': 'pytest-v2',
  'sphinx-doc/sphinx': 'pytest-v2',
  'sympy/sympy': 'sympy',
  'marshmallow-code/marshmallow': 'pytest',
  'pvlib/pvlib-python': 'pytest',
  'pydicom/pydicom': 'pytest-options',
  'pylint-dev/astroid': 'pytest',
  'pyvista/pyvista': 'pytest',
  'sqlfluff/sqlfluff': 'pytest',
};

/** `org/repo` → parser, as Multi-SWE-bench chooses. One line per repository. */
export const MSB_PARSERS: Record<string, ParserName> = {
  'facebook/zstd': 'msb-automake',
  'jqlang/jq': 'msb-automake',
  'mruby/mruby': 'msb-mruby',
  'alacritty/alacritty': 'msb-cargo',
  'bee-san/RustScan': 'msb-cargo',
  'BurntSushi/ripgrep': 'msb-cargo',
  'clap-rs/clap': 'msb-cargo',
  'fish-shell/fish-shell': 'msb-cargo',
  'helix-editor/helix': 'msb-cargo',
  'nushell/nushell': 'msb-cargo',
  'rayon-rs/rayon': 'msb-cargo',
  'rusqlite/rusqlite': 'msb-cargo',
  'rust-lang/mdBook': 'msb-cargo',
  'serde-rs/serde': 'msb-cargo',
  'sharkdp/bat': 'msb-cargo',
  'sharkdp/fd': 'msb-cargo',
  'tokio-rs/bytes': 'msb-cargo',
  'tokio-rs/tokio': 'msb-cargo',
  'tokio-rs/tracing': 'msb-cargo',
  'fmtlib/fmt': 'msb-ctest',
  'nlohmann/json': 'msb-ctest',
  'rdkit/rdkit': 'msb-ctest',
  'simdjson/simdjson': 'msb-ctest',
  'CGAL/cgal': 'msb-ctest-open',
  'fluent/fluent-bit': 'msb-ctest-open',
  'libgit2/libgit2': 'msb-ctest-open',
  'libsdl-org/SDL': 'msb-ctest-open',
  'OpenMathLib/OpenBLAS': 'msb-ctest-open',
  'root-project/root': 'msb-ctest-open',
  'beego/beego': 'msb-go',
  'caddyserver/caddy': 'msb-go',
  'cli/cli': 'msb-go',
  'concourse/concourse': 'msb-go',
  'fatedier/frp': 'msb-go',
  'gohugoio/hugo': 'msb-go',
  'istio/istio': 'msb-go',
  'jesseduffield/lazygit': 'msb-go',
  'junegunn/fzf': 'msb-go',
  'labstack/echo': 'msb-go',
  'nats-io/nats-server': 'msb-go',
  'nektos/act': 'msb-go',
  'prometheus/prometheus': 'msb-go',
  'syncthing/syncthing': 'msb-go',
  'etcd-io/etcd': 'msb-go-parent',
  'gin-gonic/gin': 'msb-go-parent',
  'go-gorm/gorm': 'msb-go-parent',
  'grpc/grpc-go': 'msb-go-parent',
  'zeromicro/go-zero': 'msb-go-parent',
  'ankidroid/Anki-Android': 'msb-gradle',
  'junit-team/junit5': 'msb-gradle',
  'Kotlin/kotlinx.coroutines': 'msb-gradle',
  'micronaut-projects/micronaut-core': 'msb-gradle',
  'pinterest/ktlint': 'msb-gradle',
  'spotbugs/spotbugs': 'msb-gradle',
  'streetcomplete/StreetComplete': 'msb-gradle',
  'thunderbird/thunderbird-android': 'msb-gradle',
  'google/gson': 'msb-gson',
  'anuraghazra/github-readme-stats': 'msb-jest-suite',
  'iamkun/dayjs': 'msb-jest-suite',
  'apache/dubbo': 'msb-maven-class',
  'fasterxml/jackson-core': 'msb-maven-class',
  'fasterxml/jackson-databind': 'msb-maven-class',
  'fasterxml/jackson-dataformat-xml': 'msb-maven-class',
  'expressjs/express': 'msb-mocha-json',
  'axios/axios': 'msb-mocha-spec',
  'eclipse-vertx/vert.x': 'msb-none',
  'facebook/docusaurus': 'msb-none',
  'keycloak/keycloak': 'msb-none',
  'pmd/pmd': 'msb-none',
  'ReactiveX/RxJava': 'msb-none',
  'palantir/blueprint': 'msb-js-marks',
  'remix-run/react-router': 'msb-jest-files',
  'colinhacks/zod': 'msb-jest-files',
  'markedjs/marked': 'msb-node-spec-suites',
  'react-hook-form/react-hook-form': 'msb-marks-stripped',
  'tradingview/lightweight-charts': 'msb-marks-stripped',
  'vuetifyjs/vuetify': 'msb-marks-stripped',
  'highcharts/highcharts': 'msb-marks-first',
  'nasa/openmct': 'msb-marks-first',
  'grommet/grommet': 'msb-js-marks',
  'GoogleChrome/lighthouse': 'msb-js-marks',
  'prettier/prettier': 'msb-js-marks',
  // Their parse_log hands lists to TestResult, which raises: no log ever yields results.
  'chakra-ui/chakra-ui': 'msb-none',
  'ant-design/ant-design': 'msb-none',
  'withastro/astro': 'msb-none',
  'puppeteer/puppeteer': 'msb-none',
  'NervJS/taro': 'msb-none',
  'fastify/fastify': 'msb-none',
  'vuejs/vuex': 'msb-none',
  'scala-js/scala-js': 'msb-none',
  'scala-native/scala-native': 'msb-none',
};

/** The reference's parser for `repo`, or null when that reference has none for it. */
export function referenceParser(source: GraderSource, repo: string): ParserName | null {
  const table = source === 'swebench' ? SWEBENCH_PARSERS : MSB_PARSERS;
  if (Object.hasOwn(table, repo)) return table[repo] ?? null;
  // GitHub names are case-insensitive and the references spell some in lowercase (`burntsushi/ripgrep`).
  const lower = repo.toLowerCase();
  for (const [name, parser] of Object.entries(table)) if (name.toLowerCase() === lower) return parser;
  return null;
}

/** Multi-SWE-bench PR ranges whose instance class reads the log differently from its repository's main class. */
export const MSB_PR_PARSERS: Array<PrRange & { parser: ParserName }> = [
  { repo: 'facebook/zstd', from: 1230, to: 1748, parser: 'msb-zstd-pool' },
  { repo: 'facebook/zstd', from: 1831, to: 2703, parser: 'msb-zstd-decoder' },
  { repo: 'mruby/mruby', from: 0, to: 2783, parser: 'msb-mruby-total' },
  { repo: 'mruby/mruby', from: 2784, to: 4932, parser: 'msb-mruby-ko' },
  { repo: 'expressjs/express', from: 4212, to: 4212, parser: 'msb-mocha-spec' },
  { repo: 'expressjs/express', from: 4852, to: 4852, parser: 'msb-mocha-spec' },
  { repo: 'expressjs/express', from: 5555, to: 5555, parser: 'msb-mocha-spec' },
  { repo: 'expressjs/express', from: 5841, to: 5841, parser: 'msb-mocha-spec' },
];

/** As `referenceParser`, with the pull-request number deciding where the reference's rule depends on it. */
export function referenceParserForPr(
  source: GraderSource,
  repo: string,
  pr: number | null,
): ParserName | null {
  if (source === 'multi-swe-bench' && pr !== null) {
    const hit = prRangeHit(MSB_PR_PARSERS, repo, pr);
    if (hit) return hit.parser;
  }
  return referenceParser(source, repo);
}
