/** Milliseconds as the tables show them: two decimals under 10, one under 100, none above. */
export const ms = (value: number | undefined): string =>
  value === undefined || !Number.isFinite(value) ? '—' : value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : value.toFixed(0)

/** A ratio to the floor, `1.23×`. */
export const ratio = (value: number | undefined): string => (value === undefined || !Number.isFinite(value) ? '—' : `${value.toFixed(2)}×`)
