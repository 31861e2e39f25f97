/** One page of a list, as every list endpoint answers it. */
export interface Page<T> {
  list: T[];
  total: number;
  page: number;
  pageSize: number;
}

/** Which page of a list, and (measurements and tests only) how far its total is counted. */
export interface Paging {
  page: number;
  pageSize: number;
  /** `COUNT_LIMIT` unless given. */
  countLimit?: number;
}
