import type { ConformanceFixtureSource } from '../../testing/fixture-record.js'

/** Dockerfile (`fixtures/conformance-dockerfile`): two build stages; an `EXPOSE` that is no port. */
export const fixture: ConformanceFixtureSource = {
  folder: 'conformance-dockerfile',
  main: 'Dockerfile',
  hover: { at: { file: 'Dockerfile', text: 'WORKDIR /app', at: 'WORKDIR' }, includes: ['WORKDIR'] },
  completion: { at: { file: 'Dockerfile', text: 'EXPOSE 80', at: 'EXPOSE' }, labels: ['EXPOSE', 'ENV'] },
  unformatted: { file: 'Dockerfile', text: '    COPY . .' },
  documentSymbols: { file: 'Dockerfile', symbols: [{ name: 'FROM', kind: 'function' }] },
  typeError: { file: 'broken.dockerfile', text: 'EXPOSE notaport' },
}
