/** A source opened from its description: how a worker thread reads the same records as the service's source. */
import { silentLog } from '../log.js'
import { FileRecordSource } from '../records/file-source.js'
import { PostgresRecordSource } from '../records/postgres-source.js'
import type { RecordSource, SourceSpec } from '../records/source.js'

export function openSource(spec: SourceSpec): RecordSource {
  if (spec.type === 'file') return spec.range === undefined ? new FileRecordSource(spec.path) : FileRecordSource.part(spec.path, spec.range)
  return new PostgresRecordSource(spec.url, {
    log: silentLog,
    applicationName: spec.applicationName,
    timing: { batchRows: spec.batchRows, readStepTimeoutMs: spec.readStepTimeoutMs },
  })
}
