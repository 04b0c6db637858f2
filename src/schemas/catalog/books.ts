/** Books, authors, book categories, publishers, and moderation flags (the Catalog API documentation). */
import type * as z from 'zod/mini';
import { answer, type Infer, maybe, openEnum, type Schema } from '../common.js';
import { bool, id, listPage, num, Pagination, scalar, single, text } from './base.js';
import { ListMeta } from './categories.js';
import { Images } from './skus.js';

const bookShape = () => ({
  id,
  name: text,
  main_author_id: num,
  main_author: text,
  images: maybe(Images),
  price_min: num,
  price_max: num,
  shop_count: num,
  reviewscore: num,
  reviews_count: num,
  first_product_shop_info: text,
  /** In lists, for requests made with a user token. */
  favorited: bool,
  /** Since 3.2.1. */
  web_url: text,
  /** Since 3.2.1. */
  reviewable: bool,
});
export interface Book extends Infer<typeof bookShape> {}
export const Book: Schema<Book> = /* @__PURE__ */ answer(bookShape);

const bookDetailsShape = () => ({
  series: text,
  cover: text,
  pubyear: scalar,
  pages: scalar,
  isbn: text,
  shape: text,
  volume: scalar,
  ages: scalar,
  description: text,
});
/** The documentation lists these fields without types: numbers or strings are accepted where either is plausible. */
export interface BookDetails extends Infer<typeof bookDetailsShape> {}
export const BookDetails: Schema<BookDetails> = /* @__PURE__ */ answer(bookDetailsShape);

const authorShape = () => ({ id, name: text, bio: text, image: text });
export interface Author extends Infer<typeof authorShape> {}
export const Author: Schema<Author> = /* @__PURE__ */ answer(authorShape);

const bookCategoryShape = () => ({
  id,
  name: text,
  /** In `GET /book_categories/filters?q=` results. */
  match_count: num,
});
/** A book category. Shape from recorded answers, except `match_count` (in `GET /book_categories/filters?q=`). */
export interface BookCategory extends Infer<typeof bookCategoryShape> {}
export const BookCategory: Schema<BookCategory> = /* @__PURE__ */ answer(bookCategoryShape);

const bookCategoriesMetaShape = () => ({
  pagination: maybe(Pagination),
  /** With `GET /book_categories/:id/filters`: the category whose subcategories are listed. */
  ancestor: maybe(BookCategory),
});
/** `meta` of book category lists. Shape from recorded answers; the documentation does not show it. */
export interface BookCategoriesMeta extends Infer<typeof bookCategoriesMetaShape> {}
export const BookCategoriesMeta: Schema<BookCategoriesMeta> = /* @__PURE__ */ answer(bookCategoriesMetaShape);

const publisherShape = () => ({
  id,
  name: text,
  address: text,
  email: text,
  website: text,
  fax: text,
  phone: text,
});
/** A book publisher. Shape from recorded answers; the documentation does not show it. */
export interface Publisher extends Infer<typeof publisherShape> {}
export const Publisher: Schema<Publisher> = /* @__PURE__ */ answer(publisherShape);

/** Known reasons for flagging; others may come (read them from `GET /flags`). */
export const FLAG_REASONS = ['bad_language', 'wrong_section', 'spam'] as const;

const flagShape = () => ({
  /** The code to give when flagging, e.g. `bad_language`, `wrong_section`, `spam`. */
  reason: maybe(openEnum(FLAG_REASONS)),
  description: text,
});
export interface Flag extends Infer<typeof flagShape> {}
export const Flag: Schema<Flag> = /* @__PURE__ */ answer(flagShape);

/** `GET /books/:id`. */
export const BookAnswer = /* @__PURE__ */ single('book', Book);
export interface BookAnswer extends z.output<typeof BookAnswer> {}

/** `GET /books/:id/details`. */
export const BookDetailsAnswer = /* @__PURE__ */ single('book_details', BookDetails);
export interface BookDetailsAnswer extends z.output<typeof BookDetailsAnswer> {}

/**
 * `GET /books/search`, `GET /books/:id/similar_by_author`, `GET /author/:id/books`,
 * and (shapes from recorded answers) `GET /book_categories/:id/books`, `GET /publisher/:id/books`.
 */
export const BooksPage = /* @__PURE__ */ listPage('books', Book, ListMeta);
export interface BooksPage extends z.output<typeof BooksPage> {}

/** `GET /author/:id/`. */
export const AuthorAnswer = /* @__PURE__ */ single('author', Author);
export interface AuthorAnswer extends z.output<typeof AuthorAnswer> {}

/**
 * `GET /book_categories/filters?q=`, and (shapes from recorded answers)
 * `GET /book_categories`, `GET /book_categories/:id/filters`.
 */
export const BookCategoriesPage = /* @__PURE__ */ listPage('categories', BookCategory, BookCategoriesMeta);
export interface BookCategoriesPage extends z.output<typeof BookCategoriesPage> {}

/** `GET /book_categories/:id`. Shape from recorded answers; the documentation does not show it. */
export const BookCategoryAnswer = /* @__PURE__ */ single('category', BookCategory);
export interface BookCategoryAnswer extends z.output<typeof BookCategoryAnswer> {}

/** `GET /publisher/:id`. Shape from recorded answers; the documentation does not show it. */
export const PublisherAnswer = /* @__PURE__ */ single('publisher', Publisher);
export interface PublisherAnswer extends z.output<typeof PublisherAnswer> {}

/** `GET /flags`. */
export const FlagsPage = /* @__PURE__ */ listPage('flags', Flag);
export interface FlagsPage extends z.output<typeof FlagsPage> {}
