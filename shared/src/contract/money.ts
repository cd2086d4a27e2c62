import { z } from 'zod';

export const moneySchema = z.object({
  value: z.number(),
  currency: z.string().regex(/^[A-Z]{3}$/),
});
export type Money = z.infer<typeof moneySchema>;
