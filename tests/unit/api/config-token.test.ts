import { afterEach, describe, expect, it, vi } from 'vitest';
import { CONFIG_ELEMENT_ID, DEFAULT_CONFIG, getConfig } from '../../../src/api/config';
import { CONFIG_ELEMENT_ID as SERVER_CONFIG_ELEMENT_ID } from '../../../server/static';
import { clearToken, getToken, hasToken, setToken } from '../../../src/api/token';
import { TOKEN_STORAGE_KEY } from '../../../src/domain/types';
import { MemoryStorage } from '../support';

afterEach(() => {
  vi.unstubAllGlobals();
  clearToken();
});

describe('getConfig (CONTRACT.md run-time configuration)', () => {
  it('falls back to the build-time defaults without a window config', () => {
    expect(DEFAULT_CONFIG).toEqual({
      apiPrefix: '/api/admin',
      defaultAdminEmail: 'admin@example.com',
      siteUrl: null,
      forumUrl: null,
    });
    expect(getConfig()).toEqual(DEFAULT_CONFIG);
  });

  it('takes a valid window config', () => {
    vi.stubGlobal('__MG_CONFIG__', {
      apiPrefix: 'https://api.example.com/admin-api/',
      defaultAdminEmail: ' ops@example.com ',
      siteUrl: 'https://mg.example.org/',
      forumUrl: ' https://forum.mg.example.org ',
    });
    expect(getConfig()).toEqual({
      apiPrefix: 'https://api.example.com/admin-api',
      defaultAdminEmail: 'ops@example.com',
      siteUrl: 'https://mg.example.org/',
      forumUrl: 'https://forum.mg.example.org',
    });
  });

  it('falls back field by field when the window config is malformed or partial', () => {
    for (const bad of [
      null,
      'x',
      42,
      [],
      { apiPrefix: 42 },
      { apiPrefix: 'api/admin' },
      { apiPrefix: '  ' },
    ]) {
      vi.stubGlobal('__MG_CONFIG__', bad);
      expect(getConfig()).toEqual(DEFAULT_CONFIG);
    }
    vi.stubGlobal('__MG_CONFIG__', { apiPrefix: '/other', defaultAdminEmail: '' });
    expect(getConfig()).toEqual({ ...DEFAULT_CONFIG, apiPrefix: '/other' });
    vi.stubGlobal('__MG_CONFIG__', { defaultAdminEmail: 'me@example.com' });
    expect(getConfig()).toEqual({ ...DEFAULT_CONFIG, defaultAdminEmail: 'me@example.com' });
  });

  it('rejects non-http schemes as a prefix', () => {
    vi.stubGlobal('__MG_CONFIG__', { apiPrefix: 'javascript:alert(1)' });
    expect(getConfig().apiPrefix).toBe('/api/admin');
  });

  it('takes only absolute http(s) site and forum URLs; anything else means no link', () => {
    for (const bad of [
      'javascript:alert(1)',
      '/forum',
      'forum.example.com',
      'https://',
      '',
      42,
      null,
    ]) {
      vi.stubGlobal('__MG_CONFIG__', { siteUrl: bad, forumUrl: bad });
      expect(getConfig()).toMatchObject({ siteUrl: null, forumUrl: null });
    }
    vi.stubGlobal('__MG_CONFIG__', { forumUrl: 'http://forum.local:4200' });
    expect(getConfig()).toMatchObject({ siteUrl: null, forumUrl: 'http://forum.local:4200' });
  });
});

describe("getConfig from the document's data block (the reference server's documents)", () => {
  /** A document whose #mg-config element holds `text` (null: no such element). */
  const documentWith = (text: string | null) => ({
    getElementById: (id: string) =>
      id === CONFIG_ELEMENT_ID && text !== null ? { textContent: text } : null,
  });

  it('reads the block the server writes (server/static.ts inlineConsoleConfig, same id)', () => {
    expect(CONFIG_ELEMENT_ID).toBe(SERVER_CONFIG_ELEMENT_ID);
    vi.stubGlobal(
      'document',
      documentWith(
        '{"apiPrefix": "/backend/v2/", "defaultAdminEmail": "ops@example.com", "forumUrl": "https://forum.mg.example.org"}',
      ),
    );
    expect(getConfig()).toEqual({
      apiPrefix: '/backend/v2',
      defaultAdminEmail: 'ops@example.com',
      siteUrl: null,
      forumUrl: 'https://forum.mg.example.org',
    });
  });

  it('prefers window.__MG_CONFIG__ (config.js) when both are there', () => {
    vi.stubGlobal('document', documentWith('{"apiPrefix": "/from-the-block"}'));
    vi.stubGlobal('__MG_CONFIG__', { apiPrefix: '/from-config-js' });
    expect(getConfig().apiPrefix).toBe('/from-config-js');
  });

  it('falls back to the defaults, field by field, for a missing, malformed or invalid block', () => {
    for (const text of [null, '', 'not json', '{"apiPrefix": ', '42', 'null', '["/x"]']) {
      vi.stubGlobal('document', documentWith(text));
      expect(getConfig(), String(text)).toEqual(DEFAULT_CONFIG);
    }
    vi.stubGlobal(
      'document',
      documentWith('{"apiPrefix": "javascript:alert(1)", "siteUrl": "/x"}'),
    );
    expect(getConfig()).toEqual(DEFAULT_CONFIG);
    vi.stubGlobal('document', documentWith('{"defaultAdminEmail": "me@example.com"}'));
    expect(getConfig()).toEqual({ ...DEFAULT_CONFIG, defaultAdminEmail: 'me@example.com' });
  });
});

describe('token storage (§3 stored locally)', () => {
  it('stores, reads and clears the token under TOKEN_STORAGE_KEY', () => {
    const storage = new MemoryStorage();
    vi.stubGlobal('localStorage', storage);
    expect(getToken()).toBeNull();
    expect(hasToken()).toBe(false);
    setToken('abc');
    expect(storage.getItem(TOKEN_STORAGE_KEY)).toBe('abc');
    expect(getToken()).toBe('abc');
    expect(hasToken()).toBe(true);
    clearToken();
    expect(storage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    expect(getToken()).toBeNull();
  });

  it('treats a blank stored value as no token', () => {
    const storage = new MemoryStorage();
    storage.setItem(TOKEN_STORAGE_KEY, '   ');
    vi.stubGlobal('localStorage', storage);
    expect(getToken()).toBeNull();
  });

  it('never throws when storage throws, keeping the token in memory', () => {
    const throwing = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {
        throw new Error('SecurityError');
      },
    };
    vi.stubGlobal('localStorage', throwing);
    expect(() => setToken('mem')).not.toThrow();
    expect(getToken()).toBe('mem');
    expect(() => clearToken()).not.toThrow();
    expect(getToken()).toBeNull();
  });

  it('works without any localStorage (Node)', () => {
    vi.stubGlobal('localStorage', undefined);
    setToken('x');
    expect(getToken()).toBe('x');
    clearToken();
    expect(getToken()).toBeNull();
  });
});
