/** Version of the run record layout (docs/run-record.md); bump it on incompatible changes. */
export const RUN_RECORD_VERSION = 1;
