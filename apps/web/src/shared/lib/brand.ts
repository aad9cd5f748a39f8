/** The product's name, as shown in the header, titles and alt texts. */
export const PRODUCT_NAME = 'Perch';
