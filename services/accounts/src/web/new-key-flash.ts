import { openFlash, sealFlash } from './sealed-flash.js';

/** The key just created, on its way to the keys page that shows it once (see sealed-flash.ts). */
const PURPOSE = 'comps new API key v1';

export interface NewKeyFlash {
  apiKeyId: string;
  key: string;
}

export function sealNewKey(sessionId: string, flash: NewKeyFlash): string {
  return sealFlash(sessionId, PURPOSE, flash);
}

/** The flash, or null when it was not sealed for this session (or was altered). */
export function openNewKey(sessionId: string, value: string): NewKeyFlash | null {
  const parsed = openFlash(sessionId, PURPOSE, value) as Partial<NewKeyFlash> | null;
  return parsed && typeof parsed.apiKeyId === 'string' && typeof parsed.key === 'string' ? { apiKeyId: parsed.apiKeyId, key: parsed.key } : null;
}
