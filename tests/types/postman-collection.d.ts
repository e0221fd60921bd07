/**
 * What the tests use of Postman's SDK (`postman-collection`). Its own bundled types are for an
 * older API and are not named by its package.json, so these few are declared here.
 */
declare module 'postman-collection' {
  interface PropertyList<T> {
    all(): T[];
  }
  interface Variable {
    key: string;
    disabled?: boolean;
  }
  interface FormField {
    key: string;
    type: string;
  }
  interface RequestBody {
    mode: string;
    raw?: string;
    formdata?: PropertyList<FormField>;
  }
  interface Url {
    path?: string[];
    variables: PropertyList<Variable>;
    query: PropertyList<Variable>;
  }
  export interface Item {
    request: { method: string; url: Url; body?: RequestBody };
  }
  export class Collection {
    constructor(definition: object);
    forEachItem(callback: (item: Item) => void): void;
    variables: { get(key: string): unknown };
  }
}
