/**
 * Word lists and catalogues the demo seed draws from: names, places, plans and prices, traffic
 * sources and affiliate nicknames, log messages. Emails use only example.com / example.org.
 */

/** Given names of the seeded customers. */
export const FIRST_NAMES = [
  'Ada',
  'Alan',
  'Alice',
  'Amara',
  'Amir',
  'Anna',
  'Arjun',
  'Aylin',
  'Beatriz',
  'Ben',
  'Bianca',
  'Carla',
  'Carlos',
  'Chen',
  'Chloe',
  'Daniel',
  'Dara',
  'David',
  'Diego',
  'Elena',
  'Eli',
  'Emma',
  'Erik',
  'Fatima',
  'Felix',
  'Fiona',
  'Gabriel',
  'Grace',
  'Hana',
  'Hugo',
  'Ines',
  'Isaac',
  'Ivy',
  'Jack',
  'Jana',
  'Jonas',
  'Julia',
  'Kai',
  'Karim',
  'Kenji',
  'Lara',
  'Leo',
  'Lena',
  'Liam',
  'Lucia',
  'Maya',
  'Marco',
  'Maria',
  'Mateo',
  'Mia',
  'Nadia',
  'Noah',
  'Nora',
  'Olga',
  'Omar',
  'Oscar',
  'Paula',
  'Priya',
  'Quinn',
  'Rafael',
  'Rosa',
  'Ruth',
  'Sam',
  'Sara',
  'Sofia',
  'Tariq',
  'Theo',
  'Uma',
  'Valentina',
  'Victor',
  'Wei',
  'Yara',
  'Yusuf',
  'Zoe',
  'Zane',
  'Hannah',
  'Peter',
  'Linda',
  'George',
  'Helen',
] as const;

/** Family names of the seeded customers. */
export const LAST_NAMES = [
  'Adams',
  'Ahmed',
  'Alvarez',
  'Andersen',
  'Baker',
  'Becker',
  'Bianchi',
  'Brown',
  'Campbell',
  'Chen',
  'Costa',
  'Cruz',
  'Dubois',
  'Evans',
  'Fischer',
  'Garcia',
  'Gonzalez',
  'Green',
  'Hall',
  'Hansen',
  'Hill',
  'Ivanova',
  'Jensen',
  'Johnson',
  'Kaur',
  'Khan',
  'Kim',
  'Klein',
  'Kowalski',
  'Lambert',
  'Lee',
  'Lopez',
  'Martin',
  'Meyer',
  'Miller',
  'Moreau',
  'Murphy',
  'Nakamura',
  'Nguyen',
  'Novak',
  'Okafor',
  'Olsen',
  'Patel',
  'Perez',
  'Petrov',
  'Reyes',
  'Rossi',
  'Santos',
  'Schmidt',
  'Silva',
  'Singh',
  'Smith',
  'Sato',
  'Taylor',
  'Thomas',
  'Tanaka',
  'Walker',
  'Weber',
  'White',
  'Wilson',
  'Wright',
  'Young',
  'Zhang',
  'Moore',
] as const;

/** Plans with monthly and yearly prices in cents (the same figures in every currency). */
export const PLANS = [
  { name: 'Basic', weight: 50, monthlyCents: 999, yearlyCents: 9900, productId: 201 },
  { name: 'Pro', weight: 35, monthlyCents: 1900, yearlyCents: 19000, productId: 202 },
  { name: 'Premium', weight: 15, monthlyCents: 2900, yearlyCents: 29000, productId: 203 },
] as const;
/** One plan of PLANS. */
export type Plan = (typeof PLANS)[number];

/** Currency mix: mostly USD, ~10 % EUR, ~5 % GBP. */
export const CURRENCIES = [
  ['USD', 85],
  ['EUR', 10],
  ['GBP', 5],
] as const;

/** Traffic sources of LemonSqueezy sign-ups. */
export const LS_SOURCES = [
  ['google', 35],
  ['newsletter', 20],
  ['facebook', 12],
  ['youtube', 10],
  ['podcast', 8],
  ['direct', 15],
] as const;

/**
 * ClickBank affiliate nicknames (lowercase, as ClickBank spells them), biggest first. Affiliate
 * sales follow a long tail: AFFILIATE_WEIGHTS gives the k-th a weight ∝ 1 / k^1.15 (Zipf), so a
 * handful of super-affiliates bring most sales and dozens bring a few each.
 */
export const AFFILIATES = [
  'superaff',
  'bestdeals',
  'reviewking',
  'healthguru',
  'nichepro',
  'traffix',
  'promomax',
  'clickhero',
  'emailpro',
  'dealhunter',
  'viralvids',
  'topreviews',
  'fitfocus',
  'moneymind',
  'ketoqueen',
  'adwizard',
  'pushnation',
  'listbuilder',
  'solopro',
  'yogaflow',
  'gadgetgeek',
  'bloggerjoe',
  'mindshift',
  'cashcow',
  'thrifty',
  'nativeads',
  'tubestar',
  'podpromo',
  'zenreviews',
  'deallab',
  'inboxace',
  'growthhack',
  'wellnesshq',
  'trendspot',
  'couponcat',
  'bizbuzz',
  'fbscaler',
  'seomaster',
  'quizfunnel',
  'lifehacker',
] as const;

/** [affiliate, weight] pairs of the long-tail draw (Zipf, exponent 1.15). */
export const AFFILIATE_WEIGHTS: ReadonlyArray<readonly [string, number]> = AFFILIATES.map(
  (a, k) => [a, 1 / Math.pow(k + 1, 1.15)] as const,
);

/**
 * ClickBank TIDs (tracking ids the affiliates put on their hop links): channel prefixes × creative
 * numbers, drawn on a long tail (weight ∝ 1 / k^1.1) as TID_WEIGHTS.
 */
export const TIDS: readonly string[] = (() => {
  const channels = ['fb', 'yt', 'em', 'gg', 'tt', 'ig', 'nat', 'push', 'bing', 'solo'];
  const out: string[] = [];
  for (let n = 1; n <= 16; n++)
    for (const ch of channels) out.push(`${ch}${String(n).padStart(2, '0')}`);
  return out;
})();

/** [tid, weight] pairs of the long-tail TID draw. */
export const TID_WEIGHTS: ReadonlyArray<readonly [string, number]> = TIDS.map(
  (t, k) => [t, 1 / Math.pow(k + 1, 1.1)] as const,
);

/** Vendor-side campaigns of ClickBank sales (the hop link's campaign parameter), by weight. */
export const CB_CAMPAIGNS = [
  ['evergreen-vsl', 40],
  ['quiz-funnel', 18],
  ['webinar-replay', 12],
  ['email-launch', 10],
  ['discount-30', 8],
  ['bonus-bundle', 6],
  ['summer-sale', 4],
  ['new-year-reset', 2],
] as const;

/** utm_campaign of LemonSqueezy sign-ups per traffic source (LS_SOURCES), by weight. */
export const LS_CAMPAIGNS: Record<string, ReadonlyArray<readonly [string, number]>> = {
  google: [
    ['search-brand', 50],
    ['search-generic', 35],
    ['pmax-members', 15],
  ],
  newsletter: [
    ['weekly-digest', 60],
    ['member-stories', 25],
    ['product-update', 15],
  ],
  facebook: [
    ['fb-lookalike', 55],
    ['fb-retarget', 45],
  ],
  youtube: [
    ['yt-tutorials', 60],
    ['yt-preroll', 40],
  ],
  podcast: [['podcast-sponsor', 100]],
  direct: [['(none)', 100]],
};

/** Referrer of a LemonSqueezy sale per traffic source ('' = none, a direct visit). */
export const LS_REFERRERS: Record<string, readonly string[]> = {
  google: ['https://www.google.com/', 'https://www.google.co.uk/', 'https://www.google.de/'],
  newsletter: ['https://mail.example.com/', 'https://newsletter.example.org/issue/'],
  facebook: ['https://l.facebook.com/', 'https://m.facebook.com/'],
  youtube: ['https://www.youtube.com/'],
  podcast: ['https://podcasts.example.org/episodes/'],
  direct: [''],
};

/** A country of the seeded addresses: ISO code, weight, and [state code ('' when none), city] pairs. */
export interface CountryChoice {
  code: string;
  weight: number;
  regions: ReadonlyArray<readonly [string, string]>;
}

/** Addresses: country, its states/regions (may be empty) and a postal-code maker key. */
export const COUNTRIES: readonly CountryChoice[] = [
  {
    code: 'US',
    weight: 60,
    regions: [
      ['NY', 'New York'],
      ['CA', 'Los Angeles'],
      ['TX', 'Austin'],
      ['FL', 'Miami'],
      ['WA', 'Seattle'],
      ['IL', 'Chicago'],
      ['MA', 'Boston'],
      ['CO', 'Denver'],
    ],
  },
  {
    code: 'CA',
    weight: 10,
    regions: [
      ['ON', 'Toronto'],
      ['BC', 'Vancouver'],
      ['QC', 'Montreal'],
      ['AB', 'Calgary'],
    ],
  },
  {
    code: 'GB',
    weight: 10,
    regions: [
      ['', 'London'],
      ['', 'Manchester'],
      ['', 'Leeds'],
      ['', 'Bristol'],
    ],
  },
  {
    code: 'AU',
    weight: 8,
    regions: [
      ['NSW', 'Sydney'],
      ['VIC', 'Melbourne'],
      ['QLD', 'Brisbane'],
    ],
  },
  {
    code: 'DE',
    weight: 7,
    regions: [
      ['', 'Berlin'],
      ['', 'Hamburg'],
      ['', 'Munich'],
    ],
  },
  {
    code: 'IE',
    weight: 5,
    regions: [
      ['', 'Dublin'],
      ['', 'Cork'],
    ],
  },
];

/** Street names of the seeded billing addresses. */
export const STREETS = [
  'Main St',
  'Oak Ave',
  'Maple Rd',
  'High St',
  'Park Lane',
  'Elm St',
  'King St',
  'Church Rd',
  'Mill Lane',
  'Station Rd',
] as const;

/** Log lines the seed writes into `logs`: level, message and which context it carries. */
export const LOG_TEMPLATES = [
  ['info', 'LemonSqueezy webhook processed', 'ls'],
  ['info', 'ClickBank instant notification processed', 'cb'],
  ['info', 'Discourse group membership added', 'member'],
  ['info', 'Discourse group membership removed', 'member'],
  ['info', 'Admin signed in', 'admin'],
  ['info', 'Expiration job finished', 'job'],
  ['info', 'Subscription refreshed from provider', 'ls'],
  ['debug', 'Webhook signature verified', 'ls'],
  ['debug', 'ClickBank notification decrypted', 'cb'],
  ['debug', 'Cache warmed', 'job'],
  ['trace', 'Request body parsed', 'request'],
  ['warn', 'Discourse rate limited; will retry', 'discourse'],
  ['warn', 'Webhook replay ignored (duplicate id)', 'ls'],
  ['warn', 'Admin sign-in failed', 'admin_failed'],
  ['warn', 'ClickBank notification for unknown receipt', 'cb'],
  ['error', 'Discourse API error', 'discourse'],
  ['error', 'LemonSqueezy API request failed', 'provider'],
  ['error', 'ClickBank orders API timed out', 'provider'],
  ['fatal', 'Database connection lost', 'fatal'],
] as const;

/** Relative frequency of each log level in the seeded logs. */
export const LOG_LEVEL_WEIGHTS = [
  ['trace', 4],
  ['debug', 14],
  ['info', 60],
  ['warn', 14],
  ['error', 7.5],
  ['fatal', 0.5],
] as const;
