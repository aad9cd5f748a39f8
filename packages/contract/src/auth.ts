import { z } from 'zod';
import { PASSWORD_MISMATCH } from './authRules';
import { PASSWORD_MAX, PASSWORD_MIN } from './userRules';
import { nameSchema, userSchema, usernameSchema } from './users';

export const loginBodySchema = z.object({
  username: z.string({ error: 'Username is required.' }).trim().min(1, 'Username is required.'),
  password: z.string({ error: 'Password is required.' }).min(1, 'Password is required.'),
});
export type LoginBody = z.infer<typeof loginBodySchema>;

export const signupBodySchema = z
  .object({
    firstName: nameSchema('First name'),
    lastName: nameSchema('Last name'),
    email: z
      .string({ error: 'Email is required.' })
      .trim()
      .max(254, 'Email must be at most 254 characters.')
      .pipe(z.email('Email must be a valid email address.')),
    username: z.string({ error: 'Username is required.' }).pipe(usernameSchema),
    password: z
      .string({ error: 'Password is required.' })
      .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters.`)
      .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters.`),
    confirmPassword: z.string({ error: 'Confirm password is required.' }),
  })
  .refine((body) => body.password === body.confirmPassword, {
    message: PASSWORD_MISMATCH,
    path: ['confirmPassword'],
  });
export type SignupBody = z.input<typeof signupBodySchema>;

export const loginResponseSchema = z.object({ encodedToken: z.string(), foundUser: userSchema });
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const signupResponseSchema = z.object({ encodedToken: z.string(), createdUser: userSchema });
export type SignupResponse = z.infer<typeof signupResponseSchema>;
