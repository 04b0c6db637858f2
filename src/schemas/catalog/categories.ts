/**
 * Categories, their specifications and filter groups, and the meta of SKU
 * listings (the Catalog API documentation).
 */
import * as z from 'zod/mini';
import { answer, type Infer, maybe, openEnum, type Schema } from '../common.js';
import { anything, bool, id, listPage, num, PageMeta, Pagination, single, text, texts } from './base.js';

const categoryShape = () => ({
  id,
  name: text,
  /** 0 marks a leaf category; a SKU always belongs to a leaf. */
  children_count: num,
  image_url: text,
  /** 0 for the root. */
  parent_id: num,
  fashion: bool,
  /**
   * `list` (title and specs matter most), `tiles` (title, specs and image equal),
   * `wide_tiles` (image matters most).
   */
  layout_mode: maybe(openEnum(['list', 'tiles', 'wide_tiles'])),
  web_uri: text,
  code: text,
  /** Comma-separated category ids from the root to this category. */
  path: text,
  show_specifications: bool,
  manufacturer_title: text,
  /** Family (top-level category) id; not the parent id. */
  family_id: num,
  /** Single-category view only. */
  show_manufacturers_filter: bool,
  /** Single-category view only. */
  adult: bool,
  /** Single-category view only. */
  show_spec_summary: bool,
  /** Single-category view only. */
  reviewable: bool,
  /** Single-category view only. */
  comparable: bool,
  /** Single-category view only. */
  onclick_behaviour: text,
  /** Single-category view only. */
  unit_price_label: text,
  /** Only in search results. */
  match_count: num,
});
export interface Category extends Infer<typeof categoryShape> {}
export const Category: Schema<Category> = /* @__PURE__ */ answer(categoryShape);

const specificationShape = () => ({
  id,
  name: text,
  /** Values of the SKU; empty for category specifications. */
  values: texts,
  order: num,
  /** May be empty. */
  unit: text,
  /** With `include=group`: the id of a group in the answer's `groups`. */
  group_id: num,
});
export interface Specification extends Infer<typeof specificationShape> {}
export const Specification: Schema<Specification> = /* @__PURE__ */ answer(specificationShape);

const specificationGroupShape = () => ({ id, name: text, order: num });
export interface SpecificationGroup extends Infer<typeof specificationGroupShape> {}
export const SpecificationGroup: Schema<SpecificationGroup> = /* @__PURE__ */ answer(specificationGroupShape);

/** Meaning of `FilterGroup.filter_type`. */
export const FILTER_TYPES = {
  0: 'price',
  1: 'keyword',
  2: 'spec',
  3: 'synced_spec',
  4: 'custom_range',
  5: 'sizes',
} as const;

const filterGroupShape = () => ({
  id,
  name: text,
  active: bool,
  category_id: num,
  created_at: text,
  updated_at: text,
  hint: text,
  combined: bool,
  /** 0 Price, 1 Keyword, 2 Spec, 3 Synced Spec, 4 Custom Range, 5 Sizes (see `FILTER_TYPES`); other values may come. */
  filter_type: num,
});
export interface FilterGroup extends Infer<typeof filterGroupShape> {}
export const FilterGroup: Schema<FilterGroup> = /* @__PURE__ */ answer(filterGroupShape);

const filterOptionShape = () => ({
  /** Sent back as the `availability` or `distance` parameter (for distances: kilometres). */
  id,
  label: text,
  /** Matching SKUs. */
  count: num,
});
/** An entry of `available_filters.availabilities` or `.distances`. */
export interface FilterOption extends Infer<typeof filterOptionShape> {}
export const FilterOption: Schema<FilterOption> = /* @__PURE__ */ answer(filterOptionShape);

/** id → number of matching SKUs (ids are object keys, so strings). */
const countsById = maybe(z.record(z.string(), z.nullable(z.number())));

const availableFiltersShape = () => ({
  /** Filter id → matching SKUs. */
  filters: countsById,
  /** Manufacturer id → matching SKUs. */
  manufacturers: countsById,
  /** Shop id → matching SKUs. */
  shops: countsById,
  availabilities: maybe(z.array(FilterOption)),
  distances: maybe(z.array(FilterOption)),
});
export interface AvailableFilters extends Infer<typeof availableFiltersShape> {}
export const AvailableFilters: Schema<AvailableFilters> = /* @__PURE__ */ answer(availableFiltersShape);

const listMetaShape = () => ({
  pagination: maybe(Pagination),
  /** The ordering in effect, e.g. `pricevat`, `rank`, `rating`, `popularity`. */
  ordered_by: text,
  /** Ordering name → human label; the set differs per category. */
  order_by_methods: maybe(z.record(z.string(), z.string())),
  /** With `include_meta=available_filters`. */
  available_filters: maybe(AvailableFilters),
  /** With `include_meta=applied_filters`; its shape is not shown in the documentation. */
  applied_filters: anything,
});
/** `meta` of SKU and book listings. */
export interface ListMeta extends Infer<typeof listMetaShape> {}
export const ListMeta: Schema<ListMeta> = /* @__PURE__ */ answer(listMetaShape);

/** `GET /categories/:id`, `/categories/:id/parent`, `/categories/root`. */
export const CategoryAnswer = /* @__PURE__ */ single('category', Category);
export interface CategoryAnswer extends z.output<typeof CategoryAnswer> {}

/** `GET /categories`, `/categories/:id/children`, `/manufacturers/:id/categories`. */
export const CategoriesPage = /* @__PURE__ */ listPage('categories', Category, ListMeta);
export interface CategoriesPage extends z.output<typeof CategoriesPage> {}

const categorySpecificationsAnswerShape = () => ({
  specifications: z.array(Specification),
  groups: maybe(z.array(SpecificationGroup)),
  meta: maybe(PageMeta),
});
/** `GET /categories/:id/specifications` (`groups` with `include=group`). */
export interface CategorySpecificationsAnswer extends Infer<typeof categorySpecificationsAnswerShape> {}
export const CategorySpecificationsAnswer: Schema<CategorySpecificationsAnswer> = /* @__PURE__ */ answer(categorySpecificationsAnswerShape);

/** `GET /categories/:category_id/filter_groups`. */
export const FilterGroupsPage = /* @__PURE__ */ listPage('filter_groups', FilterGroup);
export interface FilterGroupsPage extends z.output<typeof FilterGroupsPage> {}
