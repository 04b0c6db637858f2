/**
 * A complete order as document 1 describes it: every Order field, with every member of
 * Customer, InvoiceDetails, LineItem and the option objects. Used by the webhook benchmark
 * and by the reliability suite's property tests as the seed of mutated payloads.
 */
export function fullOrder(code = '260330-1000001'): Record<string, unknown> {
  const lineItem = (n: number) => ({
    id: `li-${n}`,
    shop_uid: `06227${n}`,
    product_name: `Product ${n} with a long descriptive name, colour and size`,
    quantity: n,
    unit_price: 19.9 * n,
    total_price: 19.9 * n * n,
    price_includes_vat: true,
    island_vat_discount_applied: false,
    ean: `520000000000${n}`,
    mpn: `MPN-${n}`,
    serial_numbers: null,
    commission: 1.99 * n,
    commission_rate: 10,
    extra_info: 'Colour: black\nSize: M',
    tags: ['bestseller', 'fragile'],
  });
  return {
    code,
    state: 'open',
    customer: {
      id: 'user1234',
      first_name: 'Γιάννης',
      last_name: 'Παπαδόπουλος',
      phone: '2101234567',
      mobile: '6912345678',
      marketplace_plus_user: true,
      address: {
        street_name: 'Πανεπιστημίου',
        street_number: '4',
        zip: '10564',
        city: 'Αθήνα',
        region: 'Αττικής',
        country_code: 'GR',
        pickup_from_collection_point: false,
        collection_point_address: 'Kiosk 12, Omonia',
        comments: 'Ring twice',
      },
    },
    invoice: true,
    uploaded_invoice_file: null,
    invoice_details: {
      company: 'Example Trading S.A.',
      profession: 'Retail',
      vat_number: '999999999',
      doy: 'Α΄ Αθηνών',
      address: { street_name: 'Σταδίου', street_number: '10', zip: '10564', city: 'Αθήνα', region: 'Αττικής' },
      vat_exclusion_requested: true,
      vat_exclusion_verification_method: 'service',
      vat_exclusion_documents: ['https://files.marketplace.test/vat/1.pdf'],
      vat_exclusion_representative: { id_type: 'ΑΤ Αστυνομική Ταυτότητα', id_number: '12345', otp: '654321', mobile: '6912345678' },
    },
    invoice_document: 'invoice_39a',
    comments: 'Παράδοση στο γραφείο',
    courier: 'Marketplace Last Mile',
    courier_voucher: null,
    courier_tracking_codes: [],
    line_items: [lineItem(1), lineItem(2), lineItem(3)],
    created_at: '2026-03-30T10:15:00+03:00',
    expires_at: '2026-03-31T10:15:00+03:00',
    dispatch_until: '2026-04-01T18:00:00+03:00',
    express: false,
    gift_wrap: true,
    rejection_info: { reason: 'Out of stock', actor: 'merchant' },
    accept_options: {
      number_of_parcels: [1, 2, 3],
      pickup_location: [{ id: 'loc-1', label: 'Main store, Σταδίου 10' }],
      pickup_window: [
        { id: 11, label: 'Today 15:00-18:00' },
        { id: 12, label: 'Tomorrow 09:00-12:00' },
      ],
    },
    reject_options: {
      line_item_rejection_reasons: [
        { id: 1, label: 'Out of stock', requires_available_quantity: true },
        { id: 2, label: 'Wrong price', requires_available_quantity: false },
      ],
    },
    fulfilled_by_marketplace: false,
    fbs_delivery_note: null,
    fbs_delivery_note_url: null,
    store_pickup: false,
    shipping_cost: 3.5,
    commission: 11.94,
    fees: { handling_fee: 0.5, marketplace_coins_fee: 0.2, installments_fee: 1.1 },
    pickup_window: { from: '2026-03-30T15:00:00+03:00', to: '2026-03-30T18:00:00+03:00' },
    pickup_address: 'Σταδίου 10, 10564 Αθήνα',
    set_as_ready_required: true,
    is_ready_for_dispatch: false,
    number_of_parcels: 1,
    replacements: [{ code: '260330-1000002', type: 'from_service' }],
    replaced: '260301-0999999',
    custom: ['GIFT-WRAP'],
    payment_method: 'card',
    paid_by_user: true,
    fulfillment_mode: 'core',
  };
}

/** A new_order webhook body carrying {@link fullOrder}. */
export function fullNewOrderEvent(): Record<string, unknown> {
  return { event_type: 'new_order', event_time: '2026-03-30T10:15:01+03:00', order: fullOrder() };
}
