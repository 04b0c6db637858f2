/** The service's APIs, each with its own token (a module of its own: errors, options and schemas all name them). */
export type ApiName = 'orders' | 'products' | 'catalog' | 'account' | 'cps' | 'legacyV2';
