/** The names a feed may give each attribute (XML elements and CSV columns), and the writer's own. */
type Names = Readonly<Record<string, readonly [string, string] | undefined>>;

/** A table without a prototype: a feed's `<constructor>` or `__proto__` column names nothing. */
const names = (entries: Record<string, readonly [string, string]>): Names => Object.assign(Object.create(null) as Names, entries);

/** Element (lower case) → [attribute, the writer's element name]. */
export const PRODUCT_ELEMENTS: Names = names({
  id: ['id', 'id'],
  uid: ['id', 'id'],
  uniqueid: ['id', 'id'],
  productid: ['id', 'id'],
  product_id: ['id', 'id'],
  name: ['name', 'name'],
  title: ['name', 'name'],
  link: ['link', 'link'],
  image: ['image', 'image'],
  additionalimage: ['additional_images', 'additionalimage'],
  additional_image: ['additional_images', 'additionalimage'],
  category: ['category', 'category'],
  price_with_vat: ['price', 'price_with_vat'],
  price: ['price', 'price_with_vat'],
  vat: ['vat', 'vat'],
  availability: ['availability', 'availability'],
  manufacturer: ['manufacturer', 'manufacturer'],
  mpn: ['mpn', 'mpn'],
  ean: ['ean', 'ean'],
  size: ['size', 'size'],
  weight: ['weight', 'weight'],
  shipping: ['shipping', 'shipping'],
  color: ['color', 'color'],
  description: ['description', 'description'],
  quantity: ['quantity', 'quantity'],
  wholesale_price: ['wholesale_price', 'wholesale_price'],
  season: ['season', 'season'],
  size_fit: ['size_fit', 'size_fit'],
  outlet: ['outlet', 'outlet'],
  author: ['author', 'author'],
  expiration_date: ['expiration_date', 'expiration_date'],
  country_of_origin: ['country_of_origin', 'country_of_origin'],
});
export const VARIATION_ELEMENTS: Names = names({
  variationid: ['variation_id', 'variationid'],
  availability: ['availability', 'availability'],
  size: ['size', 'size'],
  quantity: ['quantity', 'quantity'],
  price_with_vat: ['price', 'price_with_vat'],
  price: ['price', 'price_with_vat'],
  pricevat: ['price', 'price_with_vat'],
  link: ['link', 'link'],
  manufacturersku: ['mpn', 'manufacturersku'],
  mpn: ['mpn', 'manufacturersku'],
  ean: ['ean', 'ean'],
  outlet: ['outlet', 'outlet'],
});
