import { z } from 'zod';

/**
 * A schema's strict twin, at every depth: an object with a field the schema does not list fails.
 * The published schemas let payloads and responses grow (receivers must ignore new fields); a test
 * holds what the service sends now to exactly what the contract lists.
 */
export function strictly(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodObject) {
    return z.strictObject(Object.fromEntries(Object.entries(schema.shape).map(([key, field]) => [key, strictly(field as z.ZodType)])));
  }
  if (schema instanceof z.ZodOptional) return strictly(schema.unwrap() as z.ZodType).optional();
  if (schema instanceof z.ZodNullable) return strictly(schema.unwrap() as z.ZodType).nullable();
  if (schema instanceof z.ZodArray) return z.array(strictly(schema.element as z.ZodType));
  return schema;
}
