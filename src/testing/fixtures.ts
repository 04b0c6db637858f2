/**
 * The sandbox DEMO-* orders, copied from the real service's recordings (test/fixtures/recorded/)
 * because the published package cannot read test/ at run time. Kept as recorded: they disagree
 * with the spec in places (codes, extra line-item fields, missing members), which is the point.
 */
import type { MockOrder } from './types.js';

export const DEMO_ORDERS: readonly MockOrder[] = [
  {
    "code": "DEMO-ACCEPTED",
    "state": "accepted",
    "customer": {
      "id": "user1234",
      "first_name": "John",
      "last_name": "Doe",
      "address": {
        "street_name": "Πανεπιστημίου",
        "street_number": "4",
        "zip": "12345",
        "city": "Αθήνα",
        "region": "Αττικής",
        "country_code": "GR",
        "pickup_from_collection_point": false
      }
    },
    "invoice": false,
    "uploaded_invoice_file": "https://b.scdn.gr/path-to/invoice-file-name.pdf",
    "invoice_document": "receipt",
    "comments": "Παράδοση στο γραφείο",
    "courier": "CourierCenter",
    "courier_voucher": "https://marketplace.example/merchants/sample_vouchers/courier_center.pdf",
    "courier_tracking_codes": [
      "123456789"
    ],
    "line_items": [
      {
        "id": "Y5jVmgKmeX",
        "shop_uid": "405753",
        "shop_variation_uid": "40575312-14",
        "product_name": "Adidas Perormance Badge of Sport Swimsuit PS/GS",
        "quantity": 2,
        "size": {
          "label": "Ηλικία",
          "value": "14 χρονών",
          "shop_value": "12-14",
          "shop_variation_uid": "40575312-14",
          "ean": "1234567890321"
        },
        "unit_price": 17.99,
        "total_price": 35.98,
        "price_includes_vat": true,
        "ean": "1234567890123",
        "serial_numbers": null
      },
      {
        "id": "3XlV8ebjxm",
        "shop_uid": "10",
        "product_name": "Smartphone 123",
        "quantity": 2,
        "unit_price": 100,
        "total_price": 200,
        "price_includes_vat": true,
        "serial_numbers": null
      },
      {
        "id": "ZvEKMxbxr1",
        "shop_uid": "768",
        "product_name": "AIR OPTIX COLORS MHNIAIOI",
        "quantity": 2,
        "unit_price": 25.5,
        "total_price": 51,
        "price_includes_vat": true,
        "extra_info": "Χρώμα: Πράσινο\\nΒαθμοί SPH: -6.50",
        "serial_numbers": null
      }
    ],
    "created_at": "2021-06-24T13:11:41+03:00",
    "expires_at": "2021-06-25T13:11:41+03:00",
    "dispatch_until": "2021-06-28T13:11:41+03:00",
    "express": false,
    "gift_wrap": false,
    "fulfilled_by_marketplace": false,
    "fbs_delivery_note": null,
    "fbs_delivery_note_url": null,
    "paid_by_user": true,
    "payment_method": "card",
    "store_pickup": false
  },
  {
    "code": "DEMO-FBS",
    "state": "accepted",
    "customer": {
      "id": "user1234",
      "first_name": "John",
      "last_name": "Doe",
      "address": {
        "street_name": "Πανεπιστημίου",
        "street_number": "4",
        "zip": "12345",
        "city": "Αθήνα",
        "region": "Αττικής",
        "country_code": "GR",
        "pickup_from_collection_point": false
      }
    },
    "invoice": false,
    "uploaded_invoice_file": null,
    "invoice_document": "receipt",
    "comments": "Παράδοση στο γραφείο",
    "courier": "CourierCenter",
    "courier_voucher": null,
    "courier_tracking_codes": [
      "123456789"
    ],
    "line_items": [
      {
        "id": "Y5jVmgKmeX",
        "shop_uid": "405753",
        "shop_variation_uid": "40575312-14",
        "product_name": "Adidas Perormance Badge of Sport Swimsuit PS/GS",
        "quantity": 2,
        "size": {
          "label": "Ηλικία",
          "value": "14 χρονών",
          "shop_value": "12-14",
          "shop_variation_uid": "40575312-14",
          "ean": "1234567890321"
        },
        "unit_price": 17.99,
        "total_price": 35.98,
        "price_includes_vat": true,
        "ean": "1234567890123",
        "serial_numbers": null
      },
      {
        "id": "3XlV8ebjxm",
        "shop_uid": "10",
        "product_name": "Smartphone 123",
        "quantity": 2,
        "unit_price": 100,
        "total_price": 200,
        "price_includes_vat": true,
        "serial_numbers": "SN12345,SN56789"
      },
      {
        "id": "ZvEKMxbxr1",
        "shop_uid": "768",
        "product_name": "AIR OPTIX COLORS MHNIAIOI",
        "quantity": 2,
        "unit_price": 25.5,
        "total_price": 51,
        "price_includes_vat": true,
        "extra_info": "Χρώμα: Πράσινο\\nΒαθμοί SPH: -6.50",
        "serial_numbers": null
      }
    ],
    "created_at": "2021-06-24T13:11:41+03:00",
    "expires_at": "2021-06-25T13:11:41+03:00",
    "dispatch_until": "2021-06-28T13:11:41+03:00",
    "express": false,
    "gift_wrap": false,
    "fulfilled_by_marketplace": true,
    "fbs_delivery_note": null,
    "fbs_delivery_note_url": null,
    "paid_by_user": true,
    "payment_method": "card",
    "store_pickup": false,
    "fees": {
      "fbs_fee": 1.2
    }
  },
  {
    "code": "DEMO-FBS-DISPATCHED",
    "state": "dispatched",
    "customer": {
      "id": "user1234",
      "first_name": "John",
      "last_name": "Doe",
      "address": {
        "street_name": "Πανεπιστημίου",
        "street_number": "4",
        "zip": "12345",
        "city": "Αθήνα",
        "region": "Αττικής",
        "country_code": "GR",
        "pickup_from_collection_point": false
      }
    },
    "invoice": false,
    "uploaded_invoice_file": null,
    "invoice_document": "receipt",
    "comments": "Παράδοση στο γραφείο",
    "courier": "CourierCenter",
    "courier_voucher": null,
    "courier_tracking_codes": [
      "123456789"
    ],
    "line_items": [
      {
        "id": "Y5jVmgKmeX",
        "shop_uid": "405753",
        "shop_variation_uid": "40575312-14",
        "product_name": "Adidas Perormance Badge of Sport Swimsuit PS/GS",
        "quantity": 2,
        "size": {
          "label": "Ηλικία",
          "value": "14 χρονών",
          "shop_value": "12-14",
          "shop_variation_uid": "40575312-14",
          "ean": "1234567890321"
        },
        "unit_price": 17.99,
        "total_price": 35.98,
        "price_includes_vat": true,
        "ean": "1234567890123",
        "serial_numbers": null
      },
      {
        "id": "3XlV8ebjxm",
        "shop_uid": "10",
        "product_name": "Smartphone 123",
        "quantity": 2,
        "unit_price": 100,
        "total_price": 200,
        "price_includes_vat": true,
        "serial_numbers": "SN12345,SN56789"
      },
      {
        "id": "ZvEKMxbxr1",
        "shop_uid": "768",
        "product_name": "AIR OPTIX COLORS MHNIAIOI",
        "quantity": 2,
        "unit_price": 25.5,
        "total_price": 51,
        "price_includes_vat": true,
        "extra_info": "Χρώμα: Πράσινο\\nΒαθμοί SPH: -6.50",
        "serial_numbers": null
      }
    ],
    "created_at": "2021-06-24T13:11:41+03:00",
    "expires_at": "2021-06-25T13:11:41+03:00",
    "dispatch_until": "2021-06-28T13:11:41+03:00",
    "express": false,
    "gift_wrap": false,
    "fulfilled_by_marketplace": true,
    "fbs_delivery_note": "ΤΛΑΠΟ0454022",
    "fbs_delivery_note_url": "https://statics.scdn.gr/merchants/samples/fbs_delivery_note.pdf",
    "paid_by_user": true,
    "payment_method": "card",
    "store_pickup": false,
    "fees": {
      "fbs_fee": 1.2
    }
  },
  {
    "code": "DEMO-INVOICE",
    "state": "open",
    "customer": {
      "id": "user1234",
      "first_name": "John",
      "last_name": "Doe",
      "phone": "2109999999",
      "mobile": "(+30) 6999999999",
      "address": {
        "street_name": "Πανεπιστημίου",
        "street_number": "4",
        "zip": "12345",
        "city": "Αθήνα",
        "region": "Αττικής",
        "country_code": "GR",
        "pickup_from_collection_point": false
      }
    },
    "invoice": true,
    "uploaded_invoice_file": null,
    "invoice_document": "invoice",
    "invoice_details": {
      "company": "ACME",
      "profession": "Internet Services",
      "vat_number": "111119191",
      "doy": "ΙΒ Αθηνών",
      "address": {
        "street_name": "Πανεπιστημίου",
        "street_number": "4",
        "zip": "12345",
        "city": "Αθήνα",
        "region": "Αττικής"
      },
      "vat_exclusion_requested": false
    },
    "comments": "Παράδοση στο γραφείο",
    "courier": "CourierCenter",
    "courier_voucher": null,
    "courier_tracking_codes": [],
    "line_items": [
      {
        "id": "Y5jVmgKmeX",
        "shop_uid": "405753",
        "shop_variation_uid": "40575312-14",
        "product_name": "Adidas Perormance Badge of Sport Swimsuit PS/GS",
        "quantity": 2,
        "size": {
          "label": "Ηλικία",
          "value": "14 χρονών",
          "shop_value": "12-14",
          "shop_variation_uid": "40575312-14",
          "ean": "1234567890321"
        },
        "unit_price": 17.99,
        "total_price": 35.98,
        "price_includes_vat": true,
        "ean": "1234567890123",
        "serial_numbers": null,
        "tags": [
          "plus_deal",
          "price_optimizer"
        ]
      },
      {
        "id": "3XlV8ebjxm",
        "shop_uid": "10",
        "product_name": "Smartphone 123",
        "quantity": 2,
        "unit_price": 100,
        "total_price": 200,
        "price_includes_vat": true,
        "serial_numbers": null,
        "tags": [
          "coupon_deal"
        ]
      },
      {
        "id": "ZvEKMxbxr1",
        "shop_uid": "768",
        "product_name": "AIR OPTIX COLORS MHNIAIOI",
        "quantity": 2,
        "unit_price": 25.5,
        "total_price": 51,
        "price_includes_vat": true,
        "extra_info": "Χρώμα: Πράσινο\\nΒαθμοί SPH: -6.50",
        "serial_numbers": null,
        "tags": [
          "two_plus_deal"
        ]
      }
    ],
    "created_at": "2021-06-24T13:12:12+03:00",
    "expires_at": "2021-06-25T13:12:12+03:00",
    "dispatch_until": "2021-06-28T13:12:12+03:00",
    "express": false,
    "gift_wrap": false,
    "fulfilled_by_marketplace": false,
    "fbs_delivery_note": null,
    "fbs_delivery_note_url": null,
    "paid_by_user": true,
    "payment_method": "card",
    "store_pickup": false,
    "accept_options": {
      "number_of_parcels": [
        1
      ],
      "pickup_location": [
        {
          "id": "Y5jVmgKmeX",
          "label": "Πανεπιστημίου 2, Τ.Κ. 12345, Αθήνα, Αττική"
        },
        {
          "id": "3XlV8ebjxm",
          "label": "Σταδίου 1, Τ.Κ. 12345, Αθήνα, Αττική"
        }
      ],
      "pickup_window": [
        {
          "id": 1,
          "label": "15:00 - 18:00, Πέμ 24/06/21"
        },
        {
          "id": 2,
          "label": "10:00 - 12:00, Παρ 25/06/21"
        },
        {
          "id": 3,
          "label": "12:00 - 15:00, Παρ 25/06/21"
        },
        {
          "id": 4,
          "label": "15:00 - 18:00, Παρ 25/06/21"
        },
        {
          "id": 5,
          "label": "10:00 - 12:00, Δευ 28/06/21"
        }
      ]
    },
    "fees": {},
    "reject_options": {
      "line_item_rejection_reasons": [
        {
          "id": 1,
          "label": "Εκτός αποθέματος στο κατάστημα ή στον προμηθευτή",
          "requires_available_quantity": false
        },
        {
          "id": 2,
          "label": "Λάθος καταχωρημένη τιμή(ες)",
          "requires_available_quantity": false
        },
        {
          "id": 4,
          "label": "Περιορισμένα τεμάχια",
          "requires_available_quantity": true
        },
        {
          "id": 5,
          "label": "To προϊόν καταργήθηκε",
          "requires_available_quantity": false
        }
      ]
    }
  },
  {
    "code": "DEMO-INVOICE39A",
    "state": "open",
    "customer": {
      "id": "user1234",
      "first_name": "John",
      "last_name": "Doe",
      "phone": "2109999999",
      "mobile": "(+30) 6999999999",
      "address": {
        "street_name": "Πανεπιστημίου",
        "street_number": "4",
        "zip": "12345",
        "city": "Αθήνα",
        "region": "Αττικής",
        "country_code": "GR",
        "pickup_from_collection_point": false
      }
    },
    "invoice": true,
    "uploaded_invoice_file": null,
    "invoice_document": "invoice_39a",
    "invoice_details": {
      "company": "ACME",
      "profession": "Internet Services",
      "vat_number": "111119191",
      "doy": "ΙΒ Αθηνών",
      "address": {
        "street_name": "Πανεπιστημίου",
        "street_number": "4",
        "zip": "12345",
        "city": "Αθήνα",
        "region": "Αττικής"
      },
      "vat_exclusion_requested": true,
      "vat_exclusion_representative": {
        "id_type": "ΑΤ Αστυνομική Ταυτότητα",
        "id_number": "12345",
        "otp": "123456"
      }
    },
    "comments": "Παράδοση στο γραφείο",
    "courier": "CourierCenter",
    "courier_voucher": null,
    "courier_tracking_codes": [],
    "line_items": [
      {
        "id": "Y5jVmgKmeX",
        "shop_uid": "405753",
        "shop_variation_uid": "40575312-14",
        "product_name": "Adidas Perormance Badge of Sport Swimsuit PS/GS",
        "quantity": 2,
        "size": {
          "label": "Ηλικία",
          "value": "14 χρονών",
          "shop_value": "12-14",
          "shop_variation_uid": "40575312-14",
          "ean": "1234567890321"
        },
        "unit_price": 17.99,
        "total_price": 35.98,
        "price_includes_vat": true,
        "island_vat_discount_applied": false,
        "ean": "1234567890123",
        "serial_numbers": null,
        "tags": [
          "plus_deal",
          "price_optimizer"
        ]
      },
      {
        "id": "3XlV8ebjxm",
        "shop_uid": "10",
        "product_name": "Smartphone 123",
        "quantity": 2,
        "unit_price": 100,
        "total_price": 200,
        "price_includes_vat": false,
        "island_vat_discount_applied": false,
        "serial_numbers": null,
        "tags": [
          "coupon_deal"
        ]
      },
      {
        "id": "ZvEKMxbxr1",
        "shop_uid": "768",
        "product_name": "AIR OPTIX COLORS MHNIAIOI",
        "quantity": 2,
        "unit_price": 25.5,
        "total_price": 51,
        "price_includes_vat": true,
        "island_vat_discount_applied": false,
        "extra_info": "Χρώμα: Πράσινο\\nΒαθμοί SPH: -6.50",
        "serial_numbers": null,
        "tags": [
          "two_plus_deal"
        ]
      }
    ],
    "created_at": "2021-06-24T13:12:29+03:00",
    "expires_at": "2021-06-25T13:12:29+03:00",
    "dispatch_until": "2021-06-28T13:12:29+03:00",
    "express": false,
    "gift_wrap": false,
    "fulfilled_by_marketplace": false,
    "fbs_delivery_note": null,
    "fbs_delivery_note_url": null,
    "paid_by_user": true,
    "payment_method": "card",
    "store_pickup": false,
    "accept_options": {
      "number_of_parcels": [
        1
      ],
      "pickup_location": [
        {
          "id": "Y5jVmgKmeX",
          "label": "Πανεπιστημίου 2, Τ.Κ. 12345, Αθήνα, Αττική"
        },
        {
          "id": "3XlV8ebjxm",
          "label": "Σταδίου 1, Τ.Κ. 12345, Αθήνα, Αττική"
        }
      ],
      "pickup_window": [
        {
          "id": 1,
          "label": "15:00 - 18:00, Πέμ 24/06/21"
        },
        {
          "id": 2,
          "label": "10:00 - 12:00, Παρ 25/06/21"
        },
        {
          "id": 3,
          "label": "12:00 - 15:00, Παρ 25/06/21"
        },
        {
          "id": 4,
          "label": "15:00 - 18:00, Παρ 25/06/21"
        },
        {
          "id": 5,
          "label": "10:00 - 12:00, Δευ 28/06/21"
        }
      ]
    },
    "commission": 0,
    "fees": {},
    "reject_options": {
      "line_item_rejection_reasons": [
        {
          "id": 1,
          "label": "Εκτός αποθέματος στο κατάστημα ή στον προμηθευτή",
          "requires_available_quantity": false
        },
        {
          "id": 2,
          "label": "Λάθος καταχωρημένη τιμή(ες)",
          "requires_available_quantity": false
        },
        {
          "id": 4,
          "label": "Περιορισμένα τεμάχια",
          "requires_available_quantity": true
        },
        {
          "id": 5,
          "label": "To προϊόν καταργήθηκε",
          "requires_available_quantity": false
        }
      ]
    }
  },
  {
    "code": "DEMO-INVOICE-VIES",
    "state": "accepted",
    "customer": {
      "id": "user1234",
      "first_name": "John",
      "last_name": "Doe",
      "phone": "2109999999",
      "mobile": "(+30) 6999999999",
      "address": {
        "street_name": "Πανεπιστημίου",
        "street_number": "4",
        "zip": "12345",
        "city": "Αθήνα",
        "region": "Αττικής",
        "country_code": "GR",
        "pickup_from_collection_point": false
      }
    },
    "invoice": true,
    "uploaded_invoice_file": null,
    "invoice_document": "invoice_vies",
    "invoice_details": {
      "company": "ACME EU",
      "profession": "Internet Services",
      "vat_number": "DE111119191",
      "doy": "ΙΒ Αθηνών",
      "address": {
        "street_name": "Πανεπιστημίου",
        "street_number": "4",
        "zip": "12345",
        "city": "Αθήνα",
        "region": "Αττικής"
      },
      "vat_exclusion_requested": true
    },
    "comments": "Παράδοση στο γραφείο",
    "courier": "CourierCenter",
    "courier_voucher": null,
    "courier_tracking_codes": [],
    "line_items": [
      {
        "id": "Y5jVmgKmeX",
        "shop_uid": "405753",
        "product_name": "Adidas Performance Badge of Sport Swimsuit",
        "quantity": 2,
        "unit_price": 17.99,
        "total_price": 35.98,
        "price_includes_vat": false,
        "commission": 3,
        "commission_rate": 8.34,
        "island_vat_discount_applied": false,
        "ean": "1234567890123",
        "serial_numbers": null
      },
      {
        "id": "3XlV8ebjxm",
        "shop_uid": "10",
        "product_name": "Smartphone 123",
        "quantity": 1,
        "unit_price": 100,
        "total_price": 100,
        "price_includes_vat": false,
        "commission": 9.28,
        "commission_rate": 9.28,
        "island_vat_discount_applied": false,
        "serial_numbers": null
      }
    ],
    "created_at": "2021-06-24T13:08:30+03:00",
    "expires_at": "2021-06-25T13:08:30+03:00",
    "dispatch_until": "2021-06-28T13:08:30+03:00",
    "express": false,
    "gift_wrap": false,
    "fulfilled_by_marketplace": false,
    "fbs_delivery_note": null,
    "fbs_delivery_note_url": null,
    "store_pickup": false,
    "commission": 12.28,
    "fees": {}
  },
  {
    "code": "DEMO-OPEN",
    "state": "open",
    "customer": {
      "id": "user1234",
      "first_name": "John",
      "last_name": "Doe",
      "address": {
        "street_name": "Πανεπιστημίου",
        "street_number": "4",
        "zip": "12345",
        "city": "Αθήνα",
        "region": "Αττικής",
        "country_code": "GR",
        "pickup_from_collection_point": false
      }
    },
    "invoice": false,
    "uploaded_invoice_file": null,
    "invoice_document": "receipt",
    "comments": "Παράδοση στο γραφείο",
    "courier": "CourierCenter",
    "courier_voucher": null,
    "courier_tracking_codes": [],
    "line_items": [
      {
        "id": "Y5jVmgKmeX",
        "shop_uid": "405753",
        "shop_variation_uid": "40575312-14",
        "product_name": "Adidas Perormance Badge of Sport Swimsuit PS/GS",
        "quantity": 2,
        "size": {
          "label": "Ηλικία",
          "value": "14 χρονών",
          "shop_value": "12-14",
          "shop_variation_uid": "40575312-14",
          "ean": "1234567890321"
        },
        "unit_price": 17.99,
        "total_price": 35.98,
        "price_includes_vat": true,
        "ean": "1234567890123",
        "serial_numbers": null,
        "tags": [
          "plus_deal",
          "price_optimizer"
        ]
      },
      {
        "id": "3XlV8ebjxm",
        "shop_uid": "10",
        "product_name": "Smartphone 123",
        "quantity": 2,
        "unit_price": 100,
        "total_price": 200,
        "price_includes_vat": true,
        "serial_numbers": null,
        "tags": [
          "coupon_deal"
        ]
      },
      {
        "id": "ZvEKMxbxr1",
        "shop_uid": "768",
        "product_name": "AIR OPTIX COLORS MHNIAIOI",
        "quantity": 2,
        "unit_price": 25.5,
        "total_price": 51,
        "price_includes_vat": true,
        "extra_info": "Χρώμα: Πράσινο\\nΒαθμοί SPH: -6.50",
        "serial_numbers": null,
        "tags": [
          "two_plus_deal"
        ]
      }
    ],
    "created_at": "2021-06-24T13:08:30+03:00",
    "expires_at": "2021-06-25T13:08:30+03:00",
    "dispatch_until": "2021-06-28T13:08:30+03:00",
    "express": false,
    "gift_wrap": false,
    "fulfilled_by_marketplace": false,
    "fbs_delivery_note": null,
    "fbs_delivery_note_url": null,
    "paid_by_user": true,
    "payment_method": "card",
    "store_pickup": false,
    "accept_options": {
      "number_of_parcels": [
        1
      ],
      "pickup_location": [
        {
          "id": "Y5jVmgKmeX",
          "label": "Πανεπιστημίου 2, Τ.Κ. 12345, Αθήνα, Αττική"
        },
        {
          "id": "3XlV8ebjxm",
          "label": "Σταδίου 1, Τ.Κ. 12345, Αθήνα, Αττική"
        }
      ],
      "pickup_window": [
        {
          "id": 1,
          "label": "15:00 - 18:00, Πέμ 24/06/21"
        },
        {
          "id": 2,
          "label": "10:00 - 12:00, Παρ 25/06/21"
        },
        {
          "id": 3,
          "label": "12:00 - 15:00, Παρ 25/06/21"
        },
        {
          "id": 4,
          "label": "15:00 - 18:00, Παρ 25/06/21"
        },
        {
          "id": 5,
          "label": "10:00 - 12:00, Δευ 28/06/21"
        }
      ]
    },
    "fees": {},
    "reject_options": {
      "line_item_rejection_reasons": [
        {
          "id": 1,
          "label": "Εκτός αποθέματος στο κατάστημα ή στον προμηθευτή",
          "requires_available_quantity": false
        },
        {
          "id": 2,
          "label": "Λάθος καταχωρημένη τιμή(ες)",
          "requires_available_quantity": false
        },
        {
          "id": 4,
          "label": "Περιορισμένα τεμάχια",
          "requires_available_quantity": true
        },
        {
          "id": 5,
          "label": "To προϊόν καταργήθηκε",
          "requires_available_quantity": false
        }
      ]
    }
  },
  {
    "code": "DEMO-REJECTED",
    "state": "rejected",
    "customer": {
      "id": "user1234",
      "first_name": "John",
      "last_name": "Doe",
      "address": {
        "street_name": "Πανεπιστημίου",
        "street_number": "4",
        "zip": "12345",
        "city": "Αθήνα",
        "region": "Αττικής",
        "country_code": "GR",
        "pickup_from_collection_point": false
      }
    },
    "invoice": false,
    "uploaded_invoice_file": null,
    "invoice_document": "receipt",
    "comments": "Παράδοση στο γραφείο",
    "courier": "CourierCenter",
    "courier_voucher": null,
    "courier_tracking_codes": [],
    "line_items": [
      {
        "id": "Y5jVmgKmeX",
        "shop_uid": "405753",
        "shop_variation_uid": "40575312-14",
        "product_name": "Adidas Perormance Badge of Sport Swimsuit PS/GS",
        "quantity": 2,
        "size": {
          "label": "Ηλικία",
          "value": "14 χρονών",
          "shop_value": "12-14",
          "shop_variation_uid": "40575312-14",
          "ean": "1234567890321"
        },
        "unit_price": 17.99,
        "total_price": 35.98,
        "price_includes_vat": true,
        "ean": "1234567890123",
        "serial_numbers": null,
        "tags": [
          "plus_deal",
          "price_optimizer"
        ]
      },
      {
        "id": "3XlV8ebjxm",
        "shop_uid": "10",
        "product_name": "Smartphone 123",
        "quantity": 2,
        "unit_price": 100,
        "total_price": 200,
        "price_includes_vat": true,
        "serial_numbers": null,
        "tags": [
          "coupon_deal"
        ]
      },
      {
        "id": "ZvEKMxbxr1",
        "shop_uid": "768",
        "product_name": "AIR OPTIX COLORS MHNIAIOI",
        "quantity": 2,
        "unit_price": 25.5,
        "total_price": 51,
        "price_includes_vat": true,
        "extra_info": "Χρώμα: Πράσινο\\nΒαθμοί SPH: -6.50",
        "serial_numbers": null,
        "tags": [
          "two_plus_deal"
        ]
      }
    ],
    "created_at": "2021-06-24T13:11:58+03:00",
    "expires_at": "2021-06-25T13:11:58+03:00",
    "dispatch_until": "2021-06-28T13:11:58+03:00",
    "express": false,
    "gift_wrap": false,
    "fulfilled_by_marketplace": false,
    "fbs_delivery_note": null,
    "fbs_delivery_note_url": null,
    "paid_by_user": true,
    "payment_method": "card",
    "store_pickup": false,
    "rejection_info": {
      "reason": "Το κατάστημά μας είναι κλειστό για προσωπικούς λόγους",
      "actor": "merchant"
    }
  },
  {
    "code": "DEMO-REPLACED",
    "state": "open",
    "customer": {
      "id": "user1234",
      "first_name": "John",
      "last_name": "Doe",
      "address": {
        "street_name": "Πανεπιστημίου",
        "street_number": "4",
        "zip": "12345",
        "city": "Αθήνα",
        "region": "Αττικής",
        "country_code": "GR",
        "pickup_from_collection_point": false
      }
    },
    "invoice": false,
    "uploaded_invoice_file": null,
    "invoice_document": "receipt",
    "comments": "",
    "courier": "CourierCenter",
    "courier_voucher": null,
    "courier_tracking_codes": [],
    "line_items": [
      {
        "id": "Y5jVmgKmeX",
        "shop_uid": "405753",
        "product_name": "Adidas Performance Badge of Sport Swimsuit",
        "quantity": 1,
        "unit_price": 17.99,
        "total_price": 17.99,
        "price_includes_vat": true,
        "commission": 1.5,
        "commission_rate": 8.34,
        "island_vat_discount_applied": false,
        "ean": "1234567890123",
        "serial_numbers": null
      }
    ],
    "created_at": "2021-06-24T13:08:30+03:00",
    "expires_at": "2021-06-25T13:08:30+03:00",
    "dispatch_until": "2021-06-28T13:08:30+03:00",
    "express": false,
    "gift_wrap": false,
    "fulfilled_by_marketplace": false,
    "fbs_delivery_note": null,
    "fbs_delivery_note_url": null,
    "store_pickup": false,
    "fees": {},
    "replaced_suborder": "DEMO-REPLACED-1",
    "accept_options": {
      "number_of_parcels": [
        1
      ],
      "pickup_location": [
        {
          "id": "Y5jVmgKmeX",
          "label": "Πανεπιστημίου 2, Τ.Κ. 12345, Αθήνα, Αττική"
        },
        {
          "id": "3XlV8ebjxm",
          "label": "Σταδίου 1, Τ.Κ. 12345, Αθήνα, Αττική"
        }
      ],
      "pickup_window": [
        {
          "id": 1,
          "label": "15:00 - 18:00, Πέμ 24/06/21"
        },
        {
          "id": 2,
          "label": "10:00 - 12:00, Παρ 25/06/21"
        }
      ]
    },
    "reject_options": {
      "line_item_rejection_reasons": [
        {
          "id": 1,
          "label": "Εκτός αποθέματος στο κατάστημα ή στον προμηθευτή",
          "requires_available_quantity": false
        },
        {
          "id": 2,
          "label": "Λάθος καταχωρημένη τιμή(ες)",
          "requires_available_quantity": false
        },
        {
          "id": 4,
          "label": "Περιορισμένα τεμάχια",
          "requires_available_quantity": true
        },
        {
          "id": 5,
          "label": "To προϊόν καταργήθηκε",
          "requires_available_quantity": false
        }
      ]
    }
  },
  {
    "code": "DEMO-REPLACEMENT",
    "state": "accepted",
    "customer": {
      "id": "user1234",
      "first_name": "John",
      "last_name": "Doe",
      "address": {
        "street_name": "Πανεπιστημίου",
        "street_number": "4",
        "zip": "12345",
        "city": "Αθήνα",
        "region": "Αττικής",
        "country_code": "GR",
        "pickup_from_collection_point": false
      }
    },
    "invoice": false,
    "invoice_details": null,
    "invoice_document": "receipt",
    "uploaded_invoice_file": null,
    "comments": "",
    "courier": "CourierCenter",
    "courier_voucher": null,
    "courier_tracking_codes": [],
    "line_items": [
      {
        "id": "Y5jVmgKmeX",
        "shop_uid": "405753",
        "product_name": "Adidas Performance Badge of Sport Swimsuit",
        "quantity": 1,
        "unit_price": 17.99,
        "total_price": 17.99,
        "price_includes_vat": true,
        "commission": 1.5,
        "commission_rate": 8.34,
        "island_vat_discount_applied": false,
        "ean": "1234567890123",
        "serial_numbers": null
      }
    ],
    "created_at": "2021-06-24T13:08:30+03:00",
    "expires_at": "2021-06-25T13:08:30+03:00",
    "dispatch_until": "2021-06-28T13:08:30+03:00",
    "express": false,
    "gift_wrap": false,
    "fulfilled_by_marketplace": false,
    "fbs_delivery_note": null,
    "fbs_delivery_note_url": null,
    "store_pickup": false,
    "fees": {},
    "replacements": [
      {
        "code": "DEMO-REPLACEMENT-1",
        "type": "from_service"
      }
    ]
  },
  {
    "code": "DEMO-RETURN",
    "state": "accepted",
    "customer": {
      "id": "user1234",
      "first_name": "John",
      "last_name": "Doe",
      "address": {
        "street_name": "Πανεπιστημίου",
        "street_number": "4",
        "zip": "12345",
        "city": "Αθήνα",
        "region": "Αττικής",
        "pickup_from_collection_point": false
      }
    },
    "invoice": false,
    "invoice_document": "receipt",
    "uploaded_invoice_file": "https://marketplace.example/merchants/samples/demo_uploaded_invoice.pdf",
    "comments": "Παράδοση στο γραφείο",
    "courier": "CourierCenter",
    "courier_voucher": "https://marketplace.example/merchants/sample_vouchers/courier_center.pdf",
    "courier_tracking_codes": [
      "123456789"
    ],
    "line_items": [
      {
        "id": "KmdDmkl0xb",
        "shop_uid": "405753",
        "shop_variation_uid": "40575312-14",
        "product_name": "Adidas Perormance Badge of Sport Swimsuit PS/GS",
        "quantity": 2,
        "size": {
          "label": "Ηλικία",
          "value": "14 χρονών",
          "shop_value": "12-14",
          "shop_variation_uid": "40575312-14",
          "ean": "1234567890321"
        },
        "unit_price": 17.99,
        "total_price": 35.98,
        "price_includes_vat": true,
        "ean": "1234567890123",
        "serial_numbers": null,
        "tags": [
          "plus_deal",
          "price_optimizer"
        ]
      },
      {
        "id": "xWMlznlYJR",
        "shop_uid": "10",
        "product_name": "Smartphone 123",
        "quantity": 2,
        "unit_price": 100,
        "total_price": 200,
        "price_includes_vat": true,
        "serial_numbers": null,
        "tags": [
          "coupon_deal"
        ]
      },
      {
        "id": "RN4rJ9l8KE",
        "shop_uid": "768",
        "product_name": "AIR OPTIX COLORS MHNIAIOI",
        "quantity": 2,
        "unit_price": 25.5,
        "total_price": 51,
        "price_includes_vat": true,
        "extra_info": "Χρώμα: Πράσινο\nΒαθμοί SPH: -6.50",
        "serial_numbers": null,
        "tags": [
          "two_plus_deal"
        ]
      }
    ],
    "created_at": "2026-04-01T23:03:59+03:00",
    "expires_at": "2026-04-02T23:03:59+03:00",
    "dispatch_until": "2026-04-03T23:03:59+03:00",
    "express": false,
    "fulfilled_by_marketplace": false,
    "fbs_delivery_note": null,
    "fbs_delivery_note_url": null,
    "number_of_parcels": 2,
    "pickup_window": {
      "from": "2026-04-01T12:00:00+03:00",
      "to": "2026-04-01T14:00:00+03:00"
    },
    "pickup_address": "Αλέκου Παναγούλη 91, Τ.Κ 14234, Νέα Ιωνία",
    "paid_by_user": true,
    "payment_method": "card",
    "store_pickup": false,
    "fees": {},
    "returns": [
      {
        "return_uuid": "KmdDmkl0xb",
        "tracking_ids": [
          "9WDEE48L66D7Y"
        ]
      },
      {
        "return_uuid": "xWMlznlYJR",
        "tracking_ids": [
          "94GO8X0Q2PD6J",
          "94GO8X0Q2PD6K"
        ]
      }
    ]
  },
  {
    "code": "DEMO-STORE-PICKUP",
    "state": "open",
    "customer": {
      "id": "user1234",
      "first_name": "John",
      "last_name": "Doe",
      "address": {
        "street_name": "Πανεπιστημίου",
        "street_number": "4",
        "zip": "12345",
        "city": "Αθήνα",
        "region": "Αττικής",
        "country_code": "GR",
        "pickup_from_collection_point": false
      }
    },
    "invoice": false,
    "uploaded_invoice_file": null,
    "invoice_document": "receipt",
    "comments": "Παράδοση στο γραφείο",
    "courier": null,
    "courier_voucher": null,
    "courier_tracking_codes": [],
    "line_items": [
      {
        "id": "Y5jVmgKmeX",
        "shop_uid": "405753",
        "shop_variation_uid": "40575312-14",
        "product_name": "Adidas Perormance Badge of Sport Swimsuit PS/GS",
        "quantity": 2,
        "size": {
          "label": "Ηλικία",
          "value": "14 χρονών",
          "shop_value": "12-14",
          "shop_variation_uid": "40575312-14",
          "ean": "1234567890321"
        },
        "unit_price": 17.99,
        "total_price": 35.98,
        "price_includes_vat": true,
        "ean": "1234567890123",
        "serial_numbers": null,
        "tags": [
          "plus_deal",
          "price_optimizer"
        ]
      }
    ],
    "created_at": "2021-06-24T13:08:30+03:00",
    "expires_at": "2021-06-25T13:08:30+03:00",
    "dispatch_until": null,
    "express": false,
    "gift_wrap": false,
    "fulfilled_by_marketplace": false,
    "fbs_delivery_note": null,
    "fbs_delivery_note_url": null,
    "paid_by_user": true,
    "payment_method": "card",
    "store_pickup": true,
    "fees": {},
    "accept_options": {
      "number_of_parcels": [
        1
      ],
      "pickup_location": [
        {
          "id": "Y5jVmgKmeX",
          "label": "Πανεπιστημίου 2, Τ.Κ. 12345, Αθήνα, Αττική"
        }
      ],
      "pickup_window": []
    },
    "reject_options": {
      "line_item_rejection_reasons": [
        {
          "id": 1,
          "label": "Εκτός αποθέματος στο κατάστημα ή στον προμηθευτή",
          "requires_available_quantity": false
        },
        {
          "id": 2,
          "label": "Λάθος καταχωρημένη τιμή(ες)",
          "requires_available_quantity": false
        },
        {
          "id": 4,
          "label": "Περιορισμένα τεμάχια",
          "requires_available_quantity": true
        },
        {
          "id": 5,
          "label": "To προϊόν καταργήθηκε",
          "requires_available_quantity": false
        }
      ]
    }
  }
];

/** DEMO-FEES as recorded: the real service answered this body, which is not valid JSON (a trailing comma). */
export const DEMO_FEES_RAW_BODY = "{ \"order\": { \"code\": \"DEMO-FEES\", \"state\": \"accepted\", \"customer\": { \"id\": \"user1234\", \"first_name\": \"John\", \"last_name\": \"Doe\", \"address\": { \"street_name\": \"Πανεπιστημίου\", \"street_number\": \"4\", \"zip\": \"12345\", \"city\": \"Αθήνα\", \"region\": \"Αττικής\", \"country_code\": \"GR\", \"pickup_from_collection_point\": false } }, \"invoice\": false, \"uploaded_invoice_file\": null, \"invoice_document\": \"receipt\", \"comments\": \"Παράδοση στο γραφείο\", \"courier\": \"CourierCenter\", \"courier_voucher\": \"https://marketplace.example/merchants/sample_vouchers/courier_center.pdf\", \"courier_tracking_codes\": [ \"123456789\" ], \"line_items\": [ { \"id\": \"Y5jVmgKmeX\", \"shop_uid\": \"405753\", \"product_name\": \"Adidas Performance Badge of Sport Swimsuit\", \"quantity\": 1, \"unit_price\": 17.99, \"total_price\": 17.99, \"price_includes_vat\": true, \"commission\": 1.50, \"commission_rate\": 8.34, \"island_vat_discount_applied\": false, \"ean\": \"1234567890123\", \"serial_numbers\": null, \"tags\": [\"cc_installments\"] } ], \"created_at\": \"2021-06-24T13:08:30+03:00\", \"expires_at\": \"2021-06-25T13:08:30+03:00\", \"dispatch_until\": \"2021-06-28T13:08:30+03:00\", \"express\": false, \"gift_wrap\": false, \"fulfilled_by_marketplace\": false, \"fbs_delivery_note\": null, \"fbs_delivery_note_url\": null, \"paid_by_user\": true, \"payment_method\": \"card\", \"store_pickup\": false, \"fees\": { \"handling_fee\": 1.5, \"marketplace_coins_fee\": 2.0, \"installments_fee\": 3.5, \"plus_user_fee\": 1.0 }, } }";
