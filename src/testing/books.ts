/**
 * Books of the Catalog API and its recorded book endpoints: book categories (a two-level
 * tree), publishers (`/publisher`, singular, as recorded), books and authors (`/author`).
 * The seed is fixed arithmetic, independent of `seed`: 3 top-level categories with 7
 * subcategories, 5 authors, 3 publishers and 45 books. Philosophy (1857) holds 30 books, so
 * its listing has 2 pages at the default `per` of 25.
 */
import { paginate } from './paginate.js';
import type { Route, RouteContext } from './router.js';
import { copy, fail, json } from './wire.js';

export interface MockBookCategory {
  id: number;
  name: string;
}
export interface MockBook {
  id: number;
  name: string;
  main_author_id: number;
  main_author: string;
  images: { main: string };
  price_min: number;
  price_max: number;
  shop_count: number;
  reviewscore: number;
  reviews_count: number;
  favorited: boolean;
  first_product_shop_info: string | null;
  web_url: string;
  reviewable: boolean;
}
/** Where a book sits: not part of its wire shape. */
interface BookPlace {
  categoryId: number;
  publisherId: number;
  /** Days since 2000-01-01: the `created_on` ordering. */
  publishedDay: number;
}

const TREE = [
  { id: 1857, name: 'Philosophy', children: [[805, 'Knowledge', 10], [978, 'Ethics', 10], [1599, 'Logic', 10]] },
  { id: 2400, name: 'Literature', children: [[2401, 'Poetry', 5], [2402, 'Novels', 5], [2403, 'Drama', 0]] },
  { id: 2685, name: 'History. Geography', children: [[2686, 'Ancient history', 5]] },
] as const;
const AUTHORS = ['Maria Papadaki', 'John Smith', 'Eleni Georgiou', 'Arthur Waite', 'Nikos Kazantzis'];
const PUBLISHERS = [
  { id: 78, name: 'Athens Press', city: 'Athens' },
  { id: 79, name: 'Aegean Books', city: 'Piraeus' },
  { id: 80, name: 'Northern Editions', city: 'Thessaloniki' },
];
const KINDS = ['Essays', 'Lectures', 'Notes', 'Dialogues', 'Letters'];
const BOOK_ORDER_BY = { pricevat: 'Price', popularity: 'Popularity', created_on: 'Publication date' };

export function createBooks() {
  const site = 'https://www.marketplace.test';
  const topLevel: MockBookCategory[] = TREE.map(({ id, name }) => ({ id, name }));
  const childrenOf = new Map<number, MockBookCategory[]>(TREE.map((t) => [t.id, t.children.map(([id, name]) => ({ id, name }))]));
  const categories = new Map<number, MockBookCategory>([...topLevel, ...[...childrenOf.values()].flat()].map((c) => [c.id, c]));
  const authors = AUTHORS.map((name, i) => ({
    id: 501 + i,
    name,
    bio: `${name} writes on philosophy, literature and history.`,
    image: `${site}/images/authors/${501 + i}.jpg`,
  }));
  const publishers = PUBLISHERS.map(({ id, name, city }) => ({
    id,
    name,
    address: `Panepistimiou ${id}, ${city}`,
    email: `info@publisher${id}.example`,
    website: `www.publisher${id}.example`,
    fax: `210 00000${id}`,
    phone: `210 11111${id}`,
  }));

  const books: MockBook[] = [];
  const places = new Map<number, BookPlace>();
  for (const family of TREE) {
    for (const [categoryId, categoryName, count] of family.children) {
      for (let n = 0; n < count; n++) {
        const i = books.length;
        const id = 7_000_001 + i;
        const author = authors[i % authors.length] as (typeof authors)[number];
        const priceMin = 8 + ((i * 37) % 30) + 0.5;
        books.push({
          id,
          name: `${categoryName}: ${KINDS[n % KINDS.length]}, vol. ${Math.floor(n / KINDS.length) + 1}`,
          main_author_id: author.id,
          main_author: author.name,
          images: { main: `${site}/images/books/${id}.jpg` },
          price_min: priceMin,
          price_max: priceMin + 4,
          shop_count: 1 + ((i * 7) % 12),
          reviewscore: 0,
          reviews_count: 0,
          favorited: false,
          first_product_shop_info: null,
          web_url: `${site}/b/${id}.html`,
          reviewable: true,
        });
        places.set(id, { categoryId, publisherId: (PUBLISHERS[i % PUBLISHERS.length] as (typeof PUBLISHERS)[number]).id, publishedDay: (i * 173) % 9000 });
      }
    }
  }

  // ---- lookups ---------------------------------------------------------------------------

  const notFound = (kind: string, raw?: string): never => fail(404, 'RecordNotFound', `Couldn't find ${kind} with 'id'=${raw ?? ''}`);
  const lookup = <T extends { id: number }>(list: Iterable<T>, kind: string, raw?: string): T => {
    const id = Number(raw);
    for (const item of list) if (item.id === id) return item;
    return notFound(kind, raw);
  };
  const findCategory = (raw?: string) => lookup(categories.values(), 'BookCategory', raw);
  const findBook = (raw?: string) => lookup(books, 'Book', raw);
  /** A category's books: its own and its subcategories'. */
  const booksIn = (category: MockBookCategory) => {
    const ids = new Set([category.id, ...(childrenOf.get(category.id) ?? []).map((c) => c.id)]);
    return books.filter((b) => ids.has(places.get(b.id)?.categoryId ?? 0));
  };
  const searchTerm = (url: URL) => {
    const q = url.searchParams.get('q') ?? '';
    if ([...q.trim()].length < 2) fail(422, 'InvalidSearch', 'The search query must be at least 2 characters long');
    return q.trim().toLowerCase();
  };
  const matches = (book: MockBook, needle: string) => book.name.toLowerCase().includes(needle) || book.main_author.toLowerCase().includes(needle);
  /** Ordered listing with the Catalog API documentation's `ordered_by` and `order_by_methods` (default popularity, most popular first). */
  const orderedPage = (url: URL, list: MockBook[]) => {
    const orderBy = url.searchParams.get('order_by') ?? 'popularity';
    if (!(orderBy in BOOK_ORDER_BY)) fail(400, 'InvalidParameter', `order_by must be one of ${Object.keys(BOOK_ORDER_BY).join(', ')}`);
    const dir = url.searchParams.get('order_dir') ?? (orderBy === 'popularity' ? 'desc' : 'asc');
    if (dir !== 'asc' && dir !== 'desc') fail(400, 'InvalidParameter', 'order_dir must be asc or desc');
    const key = (b: MockBook) =>
      orderBy === 'pricevat' ? b.price_min : orderBy === 'created_on' ? (places.get(b.id)?.publishedDay ?? 0) : b.shop_count;
    const sign = dir === 'asc' ? 1 : -1;
    const sorted = [...list].sort((a, b) => sign * (key(a) - key(b)) || a.id - b.id);
    return paginate(url, 'books', sorted, { ordered_by: orderBy, order_by_methods: BOOK_ORDER_BY });
  };

  const get = (pattern: string, handler: (c: RouteContext) => Response): Route => ({ method: 'GET', pattern, api: 'catalog', handler });

  // Fixed paths before their `:id` siblings: the router takes the first match.
  const routes: Route[] = [
    get('/book_categories', () => json(200, { categories: topLevel })),
    get('/book_categories/filters', ({ url }) => {
      const needle = searchTerm(url);
      const found = [...categories.values()]
        .map((c) => ({ ...c, match_count: books.filter((b) => places.get(b.id)?.categoryId === c.id && matches(b, needle)).length }))
        .filter((c) => c.match_count > 0);
      return paginate(url, 'categories', found);
    }),
    get('/book_categories/:id', ({ params }) => json(200, { category: findCategory(params.id) })),
    get('/book_categories/:id/books', ({ url, params }) => orderedPage(url, booksIn(findCategory(params.id)))),
    get('/book_categories/:id/filters', ({ params }) => {
      const ancestor = findCategory(params.id);
      return json(200, { categories: childrenOf.get(ancestor.id) ?? [], meta: { ancestor } });
    }),
    get('/publisher/:id', ({ params }) => json(200, { publisher: lookup(publishers, 'Publisher', params.id) })),
    get('/publisher/:id/books', ({ url, params }) => {
      const publisher = lookup(publishers, 'Publisher', params.id);
      return paginate(url, 'books', books.filter((b) => places.get(b.id)?.publisherId === publisher.id));
    }),
    get('/books/search', ({ url }) => {
      const needle = searchTerm(url);
      return orderedPage(url, books.filter((b) => matches(b, needle)));
    }),
    get('/books/:id', ({ params }) => json(200, { book: findBook(params.id) })),
    get('/books/:id/details', ({ params }) => {
      const book = findBook(params.id);
      const i = book.id - 7_000_001;
      const published = new Date(Date.UTC(2000, 0, 1) + (places.get(book.id)?.publishedDay ?? 0) * 86_400_000);
      return json(200, {
        book_details: {
          series: book.name.split(':')[0] ?? null,
          cover: i % 2 === 0 ? 'Paperback' : 'Hardcover',
          pubyear: published.getUTCFullYear(),
          pages: 120 + ((i * 53) % 400),
          isbn: `978-960-${String(book.id).slice(-6)}-${i % 10}`,
          shape: '14x21',
          volume: null,
          ages: null,
          description: `${book.name}, by ${book.main_author}.`,
        },
      });
    }),
    get('/books/:id/similar_by_author', ({ params }) => {
      const book = findBook(params.id);
      return json(200, { books: books.filter((b) => b.main_author_id === book.main_author_id && b.id !== book.id) });
    }),
    // The path is `/author/:id/` with a slash; the router ignores it, so both spellings work.
    get('/author/:id', ({ params }) => json(200, { author: lookup(authors, 'Author', params.id) })),
    get('/author/:id/books', ({ url, params }) => {
      const author = lookup(authors, 'Author', params.id);
      return paginate(url, 'books', books.filter((b) => b.main_author_id === author.id));
    }),
  ];

  const kit = {
    /** Ids: Philosophy (1857, 30 books over its subcategories), a subcategory, a publisher, an author, the first book. */
    ids: { bookCategory: 1857, bookSubcategory: 805, publisher: 78, author: 501, book: 7_000_001 },
    bookCategories: (): MockBookCategory[] => [...categories.values()].map(copy),
    /** Every book, or those of a book category (its subcategories included). */
    books(categoryId?: number): MockBook[] {
      const category = categoryId === undefined ? undefined : categories.get(categoryId);
      if (categoryId !== undefined && !category) throw new Error(`mock.catalog.books.books: no book category ${categoryId}`);
      return (category ? booksIn(category) : books).map(copy);
    },
  };
  return { routes, kit };
}

export type MockBooks = ReturnType<typeof createBooks>['kit'];
