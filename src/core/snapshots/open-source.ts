/** A source opened from its description: how a worker thread reads the same records as the service's source. */
import { silentLog } from '../log.js'
import { FileRecordSource } from '../records/file-source.js'
import type { RecordSource, SourceSpec } from '../records/source.js'

/** PostgreSQL's modules (pg, 40 ms) are loaded by the threads that read it, not by every build thread. */
export async function openSource(spec: SourceSpec): Promise<RecordSource> {
  if (spec.type === 'file')
    return spec.range === undefined
      ? new FileRecordSource(spec.path)
      : FileRecordSource.part(spec.path, spec.range)
  const { PostgresRecordSource } = await import('../records/postgres-source.js')
  return new PostgresRecordSource(spec.url, {
    log: silentLog,
    applicationName: spec.applicationName,
    timing: { batchRows: spec.batchRows, readStepTimeoutMs: spec.readStepTimeoutMs },
  })
}
